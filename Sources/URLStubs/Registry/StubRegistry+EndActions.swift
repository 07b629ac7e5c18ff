extension StubRegistry {
    /// Runs `action` when `scope` ends, once its requests in flight have been
    /// failed; returns `false` (and runs nothing) when the scope has ended already.
    ///
    /// The global scope never ends: an action added to it never runs.
    nonisolated func whenEnded(_ scope: StubScope, perform action: @escaping @Sendable () -> Void) -> Bool {
        withIsolation { registry in
            guard let scopeState = registry.scopes[scope.id] else { return false }
            scopeState.endActions.append(action)
            return true
        }
    }
}
