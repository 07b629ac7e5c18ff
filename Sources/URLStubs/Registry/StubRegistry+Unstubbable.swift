extension StubRegistry {
    /// Reports that a background configuration `identifier` was made in `scope`
    /// while configurations are intercepted: a problem of that scope, reported
    /// when it ends, or a warning at once outside any scope (or after it ended).
    nonisolated func reportUnstubbable(backgroundIdentifier identifier: String, in scope: StubScope?) {
        let message = ScopeMessages.backgroundConfiguration(identifier)
        let recorded = scope.map { scope in
            withIsolation { registry -> Bool in
                guard let scopeState = registry.scopes[scope.id], !scope.isGlobal else { return false }
                let kind = StubProblem.Kind.backgroundConfiguration(identifier: identifier)
                scopeState.problems.append(StubProblem(kind: kind, message: message, location: scopeState.location))
                return true
            }
        } ?? false
        if !recorded {
            Self.warn(message)
        }
    }
}
