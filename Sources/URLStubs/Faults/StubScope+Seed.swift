/// The seed of a scope's faults and response order.
extension StubScope {
    /// The seed of the scope's faults and response order, or `nil` while it has
    /// neither.
    ///
    /// Every failure message of the scope names it; run again with
    /// `URLSTUBS_SEED` set to it to replay the same decisions.
    nonisolated(nonsending) public var seed: UInt64? {
        get async {
            StubRegistry.shared.seed(of: self)
        }
    }
}

extension StubProblem {
    /// The same problem, its message ending with the seed lines `note` (unless it
    /// ends with them already).
    func noting(_ note: String) -> StubProblem {
        StubProblem(kind: kind, message: FaultMessages.noting(message, note), location: location, severity: severity)
    }
}
