/// The scenarios feature of a scope (see ``ScopeFeature``): its scenarios, by
/// name. Attached by its first `scenario(_:startingIn:)`; touched only in the
/// registry's isolation.
///
/// It has no part in resolving a request: stubs carry their scenarios' states in
/// their ``ScenarioRule``, which the core reads as a ``StubRule``.
final class ScopeScenarios: ScopeFeature {
    /// The scope's scenarios, by name.
    var byName: [String: ScenarioState] = [:]
}

extension ScopeState {
    /// The scenario `name` of this scope, or `nil`.
    func scenario(named name: String) -> ScenarioState? {
        feature(ScopeScenarios.self)?.byName[name]
    }
}
