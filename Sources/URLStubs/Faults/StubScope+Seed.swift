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
