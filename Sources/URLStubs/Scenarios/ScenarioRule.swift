/// What a stub requires of a scenario and where it moves one, resolved to the
/// scenarios themselves when the stub was registered.
///
/// The ``StubRule`` of a stub registered with `when:` or `then:`: read and applied
/// only in the registry's isolation, in the section that matches a request and
/// takes a use of the stub, so that a move is made exactly once however many
/// requests race for it.
struct ScenarioRule: StubRule {
    /// The scenario, and the state it must be in for the stub to match.
    var condition: (scenario: ScenarioState, state: String)?
    /// The scenario, and the state the stub moves it to when it answers a request.
    var transition: (scenario: ScenarioState, state: String)?

    /// Whether the stub's condition holds now.
    var holds: Bool {
        guard let condition else { return true }
        return condition.scenario.current == condition.state
    }

    /// How the scenarios differ from what the stub requires, for near-miss reports.
    var mismatches: [RequestMismatch] {
        guard let condition, !holds else { return [] }
        return [RequestMismatch(scenario: condition.scenario.name, expected: condition.state, actual: condition.scenario.current)]
    }

    /// Moves the transition's scenario to its state.
    func apply() {
        if let transition {
            transition.scenario.current = transition.state
        }
    }
}
