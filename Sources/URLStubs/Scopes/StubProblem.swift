/// One thing that went wrong in a scope, reported when the scope ends.
public struct StubProblem: Sendable {
    /// What kind of problem it is, with its details.
    public enum Kind: Sendable {
        /// A request that no stub matched; it failed with a `URLError`.
        case unmatchedRequest(RecordedRequest, nearMisses: [NearMiss])
        /// A stub that answered fewer (or more) requests than its expectation.
        case unmetExpectation(stub: Stub, expected: StubExpectation, actual: Int)
        /// A stub whose pattern, response or scenario cannot be used, with the reason.
        case invalidStub(stub: Stub, reason: String)
        /// A scenario that could not be created, or moved, as asked: its name (the
        /// scenario's identity in its scope; one refused at creation has no other
        /// value), and the reason.
        case invalidScenario(scenario: String, reason: String)
        /// A request still waiting for a delayed or computed response when the
        /// scope ended; it failed with an error. Only a warning: the test may have
        /// meant to leave it.
        case abandonedRequest(RecordedRequest)
        /// A cassette that could not be read or written (nothing was written).
        case cassette(CassetteError)
        /// A stubbed answer that differs from what the real server answers, found by
        /// a live check, with the stub that answered and each difference in words;
        /// the test still received the stubbed answer.
        case drift(stub: Stub, differences: [String])
        /// An `injectFaults` or `shuffleResponseOrder` call that cannot be used (the
        /// call was ignored), or whose seed could not be honoured (an unreadable
        /// `URLSTUBS_SEED`, a seed that disagrees with the scope's): the pattern of
        /// the requests the call was for (the problem's location is the call's
        /// line), and the reason.
        case invalidFaults(pattern: RequestPattern, reason: String)
        /// A background session configuration (the identifier it was made with)
        /// was created in the scope while ``StubInterception/interceptDefaultConfigurations()``
        /// was on: background sessions never consult URL protocols, so its
        /// requests reach the network instead of the scope's stubs.
        case backgroundConfiguration(identifier: String)
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// A complete sentence describing the problem, as reports show it.
    public let message: String
    /// Where to look: the stub's registration for stub problems, the call that
    /// created or moved the scenario for scenario problems, the scope's opening
    /// for unmatched and abandoned requests (when known).
    public let location: StubSourceLocation?

    /// Whether the problem fails the test (``Severity/error``) or is only said
    /// (``Severity/warning``).
    public let severity: Severity

    /// How much a problem weighs.
    public enum Severity: Sendable, Hashable {
        /// Said, without failing the test or making `withStubScope` throw: a request
        /// left waiting when its scope ended.
        case warning
        /// Fails the test, and makes `withStubScope` throw.
        case error
    }

    /// Whether the problem is only a warning, which does not fail a test and does
    /// not make `withStubScope` throw.
    public var isWarning: Bool {
        severity == .warning
    }

    /// A problem of `kind`; its severity is `severity`, by default a warning for an
    /// abandoned request and an error for the rest.
    init(kind: Kind, message: String, location: StubSourceLocation?, severity: Severity? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
        if let severity {
            self.severity = severity
        } else if case .abandonedRequest = kind {
            self.severity = .warning
        } else {
            self.severity = .error
        }
    }
}

extension StubProblem: CustomStringConvertible {
    /// The problem's message.
    public var description: String {
        message
    }
}
