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
    /// reported on its own): the check is ``StubExpectation/shortfall(hits:violations:cancellations:isRefused:)``,
    /// the words are here.
    static func unmetExpectation(of entry: StubEntry, in scope: StubScope) -> StubProblem? {
        let expectation = entry.expectation
        guard let shortfall = expectation.shortfall(hits: entry.hits, violations: entry.violations, cancellations: entry.cancellations, isRefused: entry.refusal != nil) else {
            return nil
        }
        let message: String
        switch shortfall {
        case let .notCancelled(answered, hits):
            message = "The stub \(entry.summary) expected every request to be cancelled by its caller, but \(answered) of \(hits) got \(answered == 1 ? "its" : "their") answer."
        case let .requested(count):
            let times = count == 1 ? "1 time" : "\(count) times"
            message = entry.origin == .written
                ? "The stub \(entry.pattern) expected \(expectation) but was requested \(times)."
                : "The stub \(entry.summary) expected \(expectation) but was requested \(times)."
        }
        return StubProblem(
            kind: .unmetExpectation(stub: entry.handle(in: scope), expected: expectation, actual: entry.hits + entry.violations),
            message: message,
            location: entry.location
        )
    }

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
