/// What URLStubs says about scenarios: states in near-miss reports, scenarios
/// that cannot be created or moved, and stubs whose scenarios cannot be used.
enum ScenarioMessages {
    /// The state of a ``RequestMismatch/Aspect/scenario`` mismatch:
    /// `"cart" is in "empty", not "filled"`.
    static func state(of mismatch: RequestMismatch) -> String {
        "\(quoted(mismatch.scenario ?? "?")) is in \(quoted(mismatch.actual)), not \(quoted(mismatch.expected))"
    }

    /// Why a scenario cannot be created with `name` and `start`, or `nil` when it can.
    static func refusal(name: String, start: String) -> String? {
        if name.isEmpty {
            return "a scenario needs a name, such as \"cart\""
        }
        if start.isEmpty {
            return "its start state is empty, and a state needs a name"
        }
        return nil
    }

    static func refused(_ name: String, reason: String) -> String {
        "The scenario \(quoted(name)) was refused: \(reason)."
    }

    static func existingStart(of existing: ScenarioState) -> String {
        "\(existing.scope) already has it, starting in \(quoted(existing.start)) (created at \(existing.location))"
    }

    static func conflictingStart(_ name: String, start: String, reason: String) -> String {
        "The scenario \(quoted(name)) cannot start in \(quoted(start)): \(reason)."
    }

    static func notMoved(_ name: String, to state: String, reason: String) -> String {
        "The scenario \(quoted(name)) was not moved to \(quoted(state)): \(reason)."
    }

    static let unnamedState = "a state needs a name"

    static func unusable(reason: String) -> String {
        "it cannot be used: \(reason)"
    }

    static func missing(in scope: StubScope) -> String {
        "\(scope) has no such scenario"
    }

    static func ignoredCreation(_ name: String, at location: StubSourceLocation, scope: StubScope, hasEnded: Bool) -> String {
        "scenario(\(quoted(name))) at \(location) was ignored: \(ignoredReason(scope: scope, hasEnded: hasEnded))."
    }

    static func ignoredMove(_ name: String, to state: String, at location: StubSourceLocation, scope: StubScope, hasEnded: Bool) -> String {
        "move(to: \(quoted(state))) of the scenario \(quoted(name)) at \(location) was ignored: \(ignoredReason(scope: scope, hasEnded: hasEnded))."
    }

    private static func ignoredReason(scope: StubScope, hasEnded: Bool) -> String {
        hasEnded ? "\(scope) has already ended" : "no stub scope is open there"
    }

    // Why a stub that names a scenario is refused; each completes
    // "The stub GET … was refused: ".

    static func foreignScenario(_ scenario: StubScenario) -> String {
        "its scenario \(quoted(scenario.name)) belongs to \(scenario.scope), which is neither this scope nor one enclosing it; a stub can use the scenarios of its own scope, of the scopes enclosing it and of the global scope"
    }

    static func endedScenario(_ scenario: StubScenario) -> String {
        "its scenario \(quoted(scenario.name)) belongs to \(scenario.scope), which has already ended"
    }

    static func missingScenario(_ scenario: StubScenario) -> String {
        "its scenario \(quoted(scenario.name)) does not exist in \(scenario.scope)"
    }

    static func unusableScenario(_ scenario: StubScenario, reason: String) -> String {
        "its scenario \(quoted(scenario.name)) cannot be used: \(reason)"
    }

    static func unnamedCondition(_ scenario: StubScenario) -> String {
        "it requires the scenario \(quoted(scenario.name)) to be in \"\", and \(unnamedState)"
    }

    static func unnamedTransition(_ scenario: StubScenario) -> String {
        "it moves the scenario \(quoted(scenario.name)) to \"\", and \(unnamedState)"
    }

    /// `text` in double quotes, as messages write names.
    static func quoted(_ text: String) -> String {
        "\"\(text)\""
    }
}
