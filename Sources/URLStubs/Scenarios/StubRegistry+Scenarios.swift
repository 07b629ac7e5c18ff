extension StubRegistry {
    /// Creates the scenario `name` of `scope` in the state `start`, unless the scope
    /// already has it.
    ///
    /// A scenario with an empty name or start state is kept, refused, so that the
    /// stubs naming it are refused with the reason too; asking again with another
    /// start state is a problem, and the scenario keeps its first start state. As
    /// with stubs, a problem of the global scope is a warning.
    nonisolated func createScenario(_ name: String, startingIn start: String, at location: StubSourceLocation, in scope: StubScope) {
        let warning = withIsolation { registry -> String? in
            guard let scopeState = registry.scopes[scope.id] else {
                let hasEnded = scope.id < registry.nextScopeID
                return ScenarioMessages.ignoredCreation(name, at: location, scope: scope, hasEnded: hasEnded)
            }
            if let existing = scopeState.scenario(named: name) {
                guard existing.start != start else { return nil }
                let reason = ScenarioMessages.existingStart(of: existing)
                let message = ScenarioMessages.conflictingStart(name, start: start, reason: reason)
                return Self.report(.invalidScenario(scenario: name, reason: reason), message: message, at: location, in: scopeState)
            }
            let refusal = ScenarioMessages.refusal(name: name, start: start)
            scopeState.attach(ScopeScenarios.self, ScopeScenarios.init).byName[name] = ScenarioState(name: name, scope: scope, start: start, location: location, refusal: refusal)
            guard let refusal else { return nil }
            let message = ScenarioMessages.refused(name, reason: refusal)
            return Self.report(.invalidScenario(scenario: name, reason: refusal), message: message, at: location, in: scopeState)
        }
        if let warning {
            Self.warn(warning)
        }
    }

    /// The state `scenario` is in, or `nil` when its scope has ended or it could
    /// not be created.
    nonisolated func state(of scenario: StubScenario) -> String? {
        withIsolation { registry in
            guard let scenarioState = registry.scopes[scenario.scope.id]?.scenario(named: scenario.name), scenarioState.refusal == nil else {
                return nil
            }
            return scenarioState.current
        }
    }

    /// Puts `scenario` in the state `target`, as if a stub had moved it.
    nonisolated func move(_ scenario: StubScenario, to target: String, at location: StubSourceLocation) {
        let warning = withIsolation { registry -> String? in
            guard let scopeState = registry.scopes[scenario.scope.id] else {
                let hasEnded = scenario.scope.id < registry.nextScopeID
                return ScenarioMessages.ignoredMove(scenario.name, to: target, at: location, scope: scenario.scope, hasEnded: hasEnded)
            }
            let reason: String
            if let scenarioState = scopeState.scenario(named: scenario.name) {
                if let refusal = scenarioState.refusal {
                    reason = ScenarioMessages.unusable(reason: refusal)
                } else if target.isEmpty {
                    reason = ScenarioMessages.unnamedState
                } else {
                    scenarioState.current = target
                    return nil
                }
            } else {
                reason = ScenarioMessages.missing(in: scenario.scope)
            }
            let message = ScenarioMessages.notMoved(scenario.name, to: target, reason: reason)
            return Self.report(.invalidScenario(scenario: scenario.name, reason: reason), message: message, at: location, in: scopeState)
        }
        if let warning {
            Self.warn(warning)
        }
    }

    /// Records a problem of `scopeState`, or returns its message as a warning when
    /// the scope is the global one, which reports no problems.
    private static func report(_ kind: StubProblem.Kind, message: String, at location: StubSourceLocation, in scopeState: ScopeState) -> String? {
        if scopeState.scope.isGlobal {
            return message
        }
        scopeState.problems.append(StubProblem(kind: kind, message: message, location: location))
        return nil
    }
}
