/// The serving feature of a scope (see ``ScopeFeature``): the servers it started
/// with `serve()`, stopped when it ends. Attached by its first server; touched only
/// in the registry's isolation, except ``closed()``.
final class ScopeServing: ScopeFeature {
    /// The scope's servers, oldest first.
    var servers: [StubServer] = []

    /// Stops the scope's servers, once its requests in flight have been failed
    /// and before its waiters are woken.
    func closed() {
        for server in servers {
            server.stop()
        }
    }
}

extension StubRegistry {
    /// Stops `server` when `scope` ends; returns `false` (and keeps nothing) when
    /// the scope has ended already. The global scope never ends: a server of the
    /// global scope is never stopped by it.
    nonisolated func stopWhenEnded(_ server: StubServer, in scope: StubScope) -> Bool {
        withIsolation { registry in
            guard let scopeState = registry.scopes[scope.id] else { return false }
            scopeState.attach(ScopeServing.self, ScopeServing.init).servers.append(server)
            return true
        }
    }
}
