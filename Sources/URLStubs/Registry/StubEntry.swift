/// A registered stub as the registry keeps it: its pattern, what it answers, how
/// often it may answer, and how often it did.
///
/// Only the registry touches an entry, under its lock, so it needs no lock of its own.
final class StubEntry {
    enum Source {
        case fixed(StubResponse)
        case dynamic(@Sendable (RecordedRequest) async throws -> StubResponse)
    }

    let id: UInt64
    let pattern: RequestPattern
    let source: Source
    let expectation: StubExpectation
    let location: StubSourceLocation
    /// Why the stub cannot answer (a refused response), or `nil`.
    let refusal: String?
    /// The requests this stub answered.
    var hits = 0
    /// The requests that matched a `.never` stub.
    var violations = 0

    init(id: UInt64, pattern: RequestPattern, source: Source, expectation: StubExpectation, location: StubSourceLocation) {
        self.id = id
        self.pattern = pattern
        self.source = source
        self.expectation = expectation
        self.location = location
        if case let .fixed(response) = source {
            refusal = response.refusal
        } else {
            refusal = nil
        }
    }

    /// Whether the stub has used every answer its expectation allows.
    var isUsedUp: Bool {
        guard let maximum = expectation.maximum, maximum > 0 else { return false }
        return hits >= maximum
    }

    /// Takes one use and returns the response for it, following a sequence.
    func takeFixedResponse(_ response: StubResponse) -> StubResponse {
        hits += 1
        guard case let .sequence(responses) = response.kind else { return response }
        var next = responses[min(hits - 1, responses.count - 1)]
        if next.delay == nil {
            next.delay = response.delay
        }
        return next
    }

    /// The stub written as its pattern and registration site.
    var summary: String {
        "\(pattern) (registered at \(location))"
    }
}
