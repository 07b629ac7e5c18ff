extension StubScenario {
    /// The state a stub moves its scenario to when it answers a request:
    /// `cart.transition(to: "filled")`.
    ///
    /// Pass it as a stub's `then:`. The move is made when the stub is chosen for a
    /// request, before its response is produced (a delayed or computed response
    /// comes later), so the next request already sees the new state.
    public struct Transition: Sendable, Hashable {
        /// The scenario that moves.
        public let scenario: StubScenario
        /// The state the scenario moves to.
        public let state: String
    }

    /// The transition that puts the scenario in `state`, for a stub's `then:`.
    ///
    /// An empty state is refused: the stub is reported when the scope ends, and the
    /// requests it matches fail with the reason.
    public func transition(to state: String) -> Transition {
        Transition(scenario: self, state: state)
    }
}
