extension StubRegistry {
    /// Reports that a background configuration `identifier` was made on `route`
    /// while configurations are intercepted: a problem of its scope, reported when
    /// it ends, or a warning at once outside any scope (or after it ended).
    nonisolated func reportUnstubbable(backgroundIdentifier identifier: String, on route: RequestRoute) {
        let message = ScopeMessages.backgroundConfiguration(identifier)
        let recorded: Bool
        switch route {
        case let .scope(scope) where !scope.isGlobal:
            recorded = withIsolation { registry -> Bool in
                guard let scopeState = registry.scopes[scope.id] else { return false }
                let kind = StubProblem.Kind.backgroundConfiguration(identifier: identifier)
                scopeState.problems.append(StubProblem(kind: kind, message: message, location: scopeState.location))
                return true
            }
        case .scope, .noScope:
            recorded = false
        }
        if !recorded {
            Self.warn(message)
        }
    }
}
