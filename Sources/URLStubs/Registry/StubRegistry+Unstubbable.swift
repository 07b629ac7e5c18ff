extension StubRegistry {
    /// Reports that a background configuration `identifier` was made in `scope`
    /// while configurations are intercepted: a problem of that scope, reported
    /// when it ends, or a warning at once outside any scope (or after it ended).
    func reportUnstubbable(backgroundIdentifier identifier: String, in scope: StubScope?) {
        let message = ScopeMessages.backgroundConfiguration(identifier)
        let recorded = scope.map { scope in
            state.withLock { state -> Bool in
                guard let scopeState = state.scopes[scope.id], !scope.isGlobal else { return false }
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
