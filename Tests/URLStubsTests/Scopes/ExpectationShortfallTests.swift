import Testing
@testable import URLStubs

/// The check behind an unmet expectation, alone: from a stub's counts when its
/// scope ends to how it falls short (the words are `ScopeMessages`', tested
/// through whole scopes in `ExpectationTests`).
@Suite("How a stub's use falls short of its expectation")
struct ExpectationShortfallTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let expectation: StubExpectation
        let hits: Int
        let violations: Int
        let cancellations: Int
        let isRefused: Bool
        let shortfall: ExpectationShortfall?

        init(_ expectation: StubExpectation, hits: Int, violations: Int = 0, cancellations: Int = 0, isRefused: Bool = false, _ shortfall: ExpectationShortfall?) {
            (self.expectation, self.hits, self.violations, self.cancellations, self.isRefused, self.shortfall) = (expectation, hits, violations, cancellations, isRefused, shortfall)
        }

        var testDescription: String {
            "\(expectation): \(hits) answered, \(violations) refused, \(cancellations) cancelled\(isRefused ? ", stub refused" : "")"
        }
    }

    @Test("answered and refused requests count against the expectation; a cancel-only stub falls short by the requests that got their answer; a refused stub never falls short here", arguments: [
        Row(.once, hits: 1, nil),
        Row(.once, hits: 0, .requested(0)),
        Row(.once, hits: 1, violations: 1, .requested(2)),
        Row(.exactly(2), hits: 3, .requested(3)),
        Row(.atLeast(2), hits: 1, .requested(1)),
        Row(.atLeast(2), hits: 5, nil),
        Row(.atMost(1), hits: 2, .requested(2)),
        Row(.never, hits: 0, nil),
        Row(.never, hits: 0, violations: 1, .requested(1)),
        Row(.anyNumber, hits: 0, nil),
        Row(.atLeast(1).eachCancelled, hits: 2, cancellations: 2, nil),
        Row(.atLeast(1).eachCancelled, hits: 3, cancellations: 1, .notCancelled(answered: 2, of: 3)),
        Row(.atLeast(1).eachCancelled, hits: 0, .requested(0)),
        Row(.once, hits: 0, isRefused: true, nil),
        Row(.atLeast(1).eachCancelled, hits: 2, cancellations: 0, isRefused: true, nil),
    ])
    func shortfall(row: Row) {
        #expect(row.expectation.shortfall(hits: row.hits, violations: row.violations, cancellations: row.cancellations, isRefused: row.isRefused) == row.shortfall)
    }
}
