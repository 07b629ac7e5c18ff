import Foundation

/// What a scope says about itself and its stubs: titles, refused and ignored
/// stubs, unmet expectations and warnings.
enum ScopeMessages {
    /// The scope written for messages: `scope #3 "name" (opened at File.swift:12)`.
    static func title(of scope: StubScope, name: String?, location: StubSourceLocation?) -> String {
        var text = scope.description
        if let name {
            text += " \"\(name)\""
        }
        if let location {
            text += " (opened at \(location))"
        }
        return text
    }

    static func unusablePattern(_ pattern: RequestPattern, reason: String) -> String {
        "The stub \(pattern) cannot be used: \(reason)."
    }

    static func refusedStub(_ pattern: RequestPattern, reason: String) -> String {
        "The stub \(pattern) was refused: \(reason)."
    }

    static func ignoredStub(_ pattern: RequestPattern, at location: StubSourceLocation, scope: StubScope, hasEnded: Bool) -> String {
        let reason = hasEnded ? "\(scope) has already ended" : "no stub scope is open there"
        return "stub(\(pattern)) at \(location) was ignored: \(reason)."
    }

    /// The problem of a stub that answered fewer or more requests than expected,
    /// or `nil` when its expectation is met (or the stub was refused, which is
    /// reported on its own).
    static func unmetExpectation(of entry: StubEntry, in scope: StubScope) -> StubProblem? {
        let stub = Stub(id: entry.id, scope: scope, pattern: entry.pattern, location: entry.location)
        let expectation = entry.expectation
        let answered = entry.hits + entry.violations
        let isMet = answered >= expectation.minimum && expectation.maximum.map { answered <= $0 } ?? true
        if isMet, expectation.requiresCancellation, entry.cancellations < entry.hits, entry.refusal == nil {
            let answeredCount = entry.hits - entry.cancellations
            return StubProblem(
                kind: .unmetExpectation(stub: stub, expected: expectation, actual: answered),
                message: "The stub \(entry.summary) expected every request to be cancelled by its caller, but \(answeredCount) of \(entry.hits) got \(answeredCount == 1 ? "its" : "their") answer.",
                location: entry.location
            )
        }
        guard !isMet, entry.refusal == nil else { return nil }
        let times = answered == 1 ? "1 time" : "\(answered) times"
        return StubProblem(
            kind: .unmetExpectation(stub: stub, expected: expectation, actual: answered),
            message: entry.origin == .written
                ? "The stub \(entry.pattern) expected \(expectation) but was requested \(times)."
                : "The stub \(entry.summary) expected \(expectation) but was requested \(times).",
            location: entry.location
        )
    }

    /// A warning that no test owns, as written to standard error.
    /// The first line of a scope's problems when its body threw too.
    static func problemsAfterBodyThrew(scope: String, count: String, error: any Error) -> String {
        "URLStubs: the body of \(scope) threw \(describe(error)), and the scope ended with \(count), which may be why:"
    }

    /// A seeded scope whose body threw, with no problem of its own.
    static func bodyThrew(scope: String, error: any Error, seedNote: String?) -> String {
        let first = "URLStubs: the body of \(scope) threw \(describe(error))."
        guard let seedNote else { return first }
        return first + "\n" + seedNote
    }

    /// An error as a reader best recognizes it: its description for errors that
    /// describe themselves, else how Swift prints it.
    private static func describe(_ error: any Error) -> String {
        if let localized = error as? any LocalizedError, let text = localized.errorDescription {
            return "\(String(reflecting: type(of: error))) (\(text))"
        }
        return String(reflecting: error)
    }

    static func warning(_ message: String) -> String {
        let text = message.hasPrefix("URLStubs: ") ? String(message.dropFirst("URLStubs: ".count)) : message
        return "URLStubs warning: " + text
    }

    /// Why a background configuration cannot be stubbed.
    static func backgroundConfiguration(_ identifier: String) -> String {
        "URLStubs: the background session configuration \"\(identifier)\" cannot be stubbed: background sessions never consult URL protocols, so its requests would reach the network. Test the code with a stubbed foreground configuration instead (URLSessionConfiguration.stubbed, or .stubbed(from: .default) with your settings), and keep background transfers behind a seam your tests replace."
    }
}
