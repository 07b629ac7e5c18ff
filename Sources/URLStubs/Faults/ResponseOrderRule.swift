/// One `shuffleResponseOrder` call of a scope: which requests it covers, and how
/// their answers are held back.
struct ResponseOrderRule {
    let pattern: RequestPattern
    /// The time between two consecutive positions.
    let spacing: Duration
    /// How many positions a request may be given.
    let positions: Int
    let location: StubSourceLocation

    /// The longest spacing accepted (beyond it, holds could overflow a `Duration`).
    static let maximumSpacing = Duration.seconds(86_400)
    /// The most positions accepted.
    static let maximumPositions = 1_000

    /// The call as messages write it.
    var summary: String {
        FaultMessages.orderCall(pattern)
    }

    /// Why the call cannot be used, or `nil` when it can.
    var problem: String? {
        if let problem = pattern.problem {
            return problem
        }
        guard spacing > .zero, spacing <= Self.maximumSpacing else {
            return FaultMessages.invalidSpacing(spacing)
        }
        guard (2...Self.maximumPositions).contains(positions) else {
            return FaultMessages.invalidPositions(positions)
        }
        return nil
    }

    /// The position (from 0) of the request with `identity` under `seed`.
    func position(of identity: RequestIdentity, seed: UInt64) -> Int {
        var draws = identity.generator(seed: seed, for: .order)
        return draws.next(below: positions)
    }

    /// How long the answer of the request with `identity` is held under `seed`.
    func hold(for identity: RequestIdentity, seed: UInt64) -> Duration {
        spacing * position(of: identity, seed: seed)
    }
}
