/// One scenario of a scope as the registry keeps it: its name, the state it
/// started in and the state it is in now.
///
/// Owned by its scope's ``ScopeScenarios`` and touched only while the registry's lock
/// is held. The stubs that name the scenario keep a reference to it, so that
/// matching reads and moves its state without a lookup (and a nested scope that
/// outlives the scenario's scope keeps the scenario working for its own stubs).
final class ScenarioState {
    let name: String
    /// The scope the scenario belongs to.
    let scope: StubScope
    /// The state the scenario was created in.
    let start: String
    /// Where the scenario was created.
    let location: StubSourceLocation
    /// Why the scenario cannot be used (an empty name or start state), or `nil`.
    let refusal: String?
    /// The state the scenario is in now.
    var current: String

    init(name: String, scope: StubScope, start: String, location: StubSourceLocation, refusal: String?) {
        self.name = name
        self.scope = scope
        self.start = start
        self.location = location
        self.refusal = refusal
        current = start
    }
}
