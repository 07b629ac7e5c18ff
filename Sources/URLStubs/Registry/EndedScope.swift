/// The state of a scope that has just ended, handed out of the registry's
/// isolation to finish its work (fail its requests in flight, wake its waiters,
/// run its features' end) without holding the registry's lock.
struct EndedScope: @unchecked Sendable {
    // @unchecked: `state` was removed from the registry in the isolated section that
    // made this value, so nothing in the registry reaches it any more: its holder
    // is its only user (its exchanges' outcomes are still written in the registry's
    // isolation, where the logs of enclosing scopes read them).
    let state: ScopeState
}
