/// The scenario condition and transition a stub is registered with
/// (`stub(_:when:then:)`), resolved to the scenarios themselves as it is
/// registered.
struct ScenarioBinding: StubRuleRequest {
    /// The scenario, and the state it must be in for the stub to match.
    var condition: StubScenario.Condition?
    /// The scenario, and the state the stub moves it to when it answers.
    var transition: StubScenario.Transition?

    /// A binding for the stub, or `nil` when it names no scenario.
    init?(_ condition: StubScenario.Condition?, _ transition: StubScenario.Transition?) {
        guard condition != nil || transition != nil else { return nil }
        self.condition = condition
        self.transition = transition
    }

    /// The rule of a stub registered in `scopeState`, or why the stub must be
    /// refused.
    ///
    /// A stub may name the scenarios of its own scope, of the scopes enclosing it
    /// and of the global scope: the scopes whose stubs it could fall back on.
    func rule(in scopeState: ScopeState, of registry: isolated StubRegistry) -> (rule: (any StubRule)?, refusal: String?) {
        /// The scenario's state, or why the stub cannot use it.
        func lookUp(_ scenario: StubScenario, in target: String, unnamed: (StubScenario) -> String) -> (ScenarioState?, String?) {
            let visible = scenario.scope == scopeState.scope || scenario.scope.isGlobal || scopeState.ancestors.contains(scenario.scope)
            guard visible else {
                return (nil, ScenarioMessages.foreignScenario(scenario))
            }
            guard let owner = registry.scopes[scenario.scope.id] else {
                return (nil, ScenarioMessages.endedScenario(scenario))
            }
            guard let scenarioState = owner.scenario(named: scenario.name) else {
                return (nil, ScenarioMessages.missingScenario(scenario))
            }
            if let refusal = scenarioState.refusal {
                return (nil, ScenarioMessages.unusableScenario(scenario, reason: refusal))
            }
            return target.isEmpty ? (nil, unnamed(scenario)) : (scenarioState, nil)
        }
        var rule = ScenarioRule()
        if let condition {
            let (scenarioState, refusal) = lookUp(condition.scenario, in: condition.state, unnamed: ScenarioMessages.unnamedCondition)
            guard let scenarioState else { return (nil, refusal) }
            rule.condition = (scenarioState, condition.state)
        }
        if let transition {
            let (scenarioState, refusal) = lookUp(transition.scenario, in: transition.state, unnamed: ScenarioMessages.unnamedTransition)
            guard let scenarioState else { return (nil, refusal) }
            rule.transition = (scenarioState, transition.state)
        }
        return (rule, nil)
    }
}
