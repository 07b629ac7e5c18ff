extension StubScenario {
    /// The state a stub requires its scenario to be in: `cart.is("empty")`.
    ///
    /// Pass it as a stub's `when:`; the stub then matches only while the scenario is
    /// in ``state``.
    public struct Condition: Sendable, Hashable {
        /// The scenario whose state is required.
        public let scenario: StubScenario
        /// The state the scenario must be in.
        public let state: String
    }

    /// The condition that the scenario is in `state`, for a stub's `when:`.
    ///
    /// An empty state is refused: the stub is reported when the scope ends, and the
    /// requests it matches fail with the reason.
    public func `is`(_ state: String) -> Condition {
        Condition(scenario: self, state: state)
    }
}
