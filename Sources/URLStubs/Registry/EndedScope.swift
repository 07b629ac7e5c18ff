/// The state of a scope that has just ended, handed out of the registry's
/// isolation to finish its work (fail its requests in flight, wake its waiters,
/// run its features' end) without holding the registry's lock.
struct EndedScope: @unchecked Sendable {
    // @unchecked: `state` was removed from the registry in the isolated section that
    // made this value, so no new request, stub or waiter reaches it. What others may
    // still share (its stubs, through exchanges of nested scopes that outlive it; its
    // scenarios, through their stubs' rules) is read and written only in isolated
    // sections, which is where `finishScope` reads it too.
    let state: ScopeState
}
