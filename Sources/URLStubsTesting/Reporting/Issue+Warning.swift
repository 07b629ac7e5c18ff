import Testing

extension Issue {
    /// Records `message` as a warning of the running test: reported, but not
    /// failing the test.
    ///
    /// Swift Testing has warnings (`Issue.Severity`) from Swift 6.3 (Xcode 26.4).
    /// With Swift 6.2 the warning is recorded as a known issue instead, which
    /// does not fail the test either and still reads as a URLStubs warning in the
    /// test's output, apart from its failures.
    static func recordWarning(_ message: String, at location: SourceLocation?) {
        #if compiler(>=6.3)
        if let location {
            record(Comment(rawValue: message), severity: .warning, sourceLocation: location)
        } else {
            record(Comment(rawValue: message), severity: .warning)
        }
        #else
        let label: Comment = "URLStubs warning (does not fail the test)"
        if let location {
            withKnownIssue(label, sourceLocation: location) {
                record(Comment(rawValue: message), sourceLocation: location)
            }
        } else {
            withKnownIssue(label) { record(Comment(rawValue: message)) }
        }
        #endif
    }
}
