import Foundation

/// A registered stub as the registry keeps it: its pattern, what it answers, how
/// often it may answer, and how often it did.
///
/// Only the registry touches an entry, under its lock, so it needs no lock of its own.
final class StubEntry {
    enum Source {
        case fixed(StubResponse)
        /// A closure that may suspend, run on a task of its own for each request.
        case dynamic(@Sendable (RecordedRequest) async throws -> StubResponse)
        /// A closure that does not suspend, run for each request inside
        /// `startLoading()`, on the thread Foundation called it on.
        case inline(@Sendable (RecordedRequest) throws -> StubResponse)
        /// The real network answers (``StubScope/passThrough(_:fileID:filePath:line:column:)``).
        case passThrough
    }

    /// Who wrote the stub.
    enum Origin: Equatable {
        /// The test, with `stub(...)` or `passThrough(...)`.
        case written
        /// A cassette's entries for one request, registered when its scope opened.
        case cassette(URL)
    }

    let id: UInt64
    let pattern: RequestPattern
    /// The route of a stub with an origin and a literal path and a valid pattern
    /// (``RequestPattern/routeKey``): such a stub matches only requests for
    /// exactly this route, which is compared before anything else.
    let exactRoute: String?
    let source: Source
    let expectation: StubExpectation
    let location: StubSourceLocation
    let origin: Origin
    /// Why the stub cannot answer (a refused response, or a rule a feature could
    /// not give it, such as a scenario it cannot use), or `nil`.
    let refusal: String?
    /// What a feature requires before the stub answers and changes when it does
    /// (a scenario's state and move), or `nil`.
    let rule: (any StubRule)?
    /// Whether ``rule`` is set: read on every request, where reading the optional
    /// existential itself would copy it.
    let hasRule: Bool

    /// The stub as `StubScope.stub(...)` returned it, for problems that name it.
    func handle(in scope: StubScope) -> Stub {
        Stub(id: id, scope: scope, pattern: pattern, location: location)
    }
    /// The response of a stub that answers every request with the same one, once
    /// its second request has prepared it (see ``sameResponse()``).
    private var preparedResponse: StubResponse?
    /// The requests this stub answered.
    var hits = 0
    /// The requests that matched a `.never` stub.
    var violations = 0
    /// The requests this stub answered that their caller cancelled first.
    var cancellations = 0

    init(
        id: UInt64,
        pattern: RequestPattern,
        source: Source,
        expectation: StubExpectation,
        location: StubSourceLocation,
        origin: Origin = .written,
        rule: (any StubRule)? = nil,
        ruleRefusal: String? = nil
    ) {
        self.id = id
        self.origin = origin
        self.pattern = pattern
        exactRoute = pattern.problem == nil ? pattern.routeKey : nil
        self.source = source
        self.expectation = expectation
        self.location = location
        self.rule = rule
        hasRule = rule != nil
        if case let .fixed(response) = source, let refusal = response.refusal {
            self.refusal = refusal
        } else {
            refusal = ruleRefusal
        }
    }

    /// Whether the stub's rule holds (always, for a stub without one): its
    /// scenario is in the state it requires.
    var ruleHolds: Bool {
        !hasRule || rule?.holds == true
    }

    /// Whether the stub has used every answer its expectation allows.
    var isUsedUp: Bool {
        guard let maximum = expectation.maximum, maximum > 0 else { return false }
        return hits >= maximum
    }

    /// What answers the stub's requests, as the exchange log names it.
    var answerSource: RecordedExchange.Source {
        switch (source, origin) {
        case (.passThrough, _): .network
        case let (_, .cassette(file)): .cassette(file)
        case (_, .written): .stub(location)
        }
    }

    /// The response of a stub that answers every request with the same one (not a
    /// sequence), ready to answer with, or `nil` for other stubs.
    ///
    /// Prepared on the stub's second request, then read as it is: an HTTP response
    /// gets the ``HeadCache`` its answers share. Not when it is registered, nor on
    /// its first request: a test registers stubs it asks once, or never, and a
    /// cache that is never read again only costs.
    ///
    /// Call it after counting the request in ``hits``.
    func sameResponse() -> StubResponse? {
        if let preparedResponse {
            return preparedResponse
        }
        guard case var .fixed(response) = source, !response.isSequence else { return nil }
        guard hits > 1 else { return response }
        if case .http = response.kind {
            response.headCache = HeadCache()
        }
        preparedResponse = response
        return response
    }

    /// The stub written as its pattern and registration site (or cassette).
    var summary: String {
        switch origin {
        case .written: "\(pattern) (registered at \(location))"
        case let .cassette(file): "\(pattern) (\(RecordingMessages.cassetteLine(file)))"
        }
    }
}
