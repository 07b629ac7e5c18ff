/// The scope's clock.
extension StubScope {
    /// The clock that times the scope's answers: the one given to `withStubScope(clock:)`
    /// or the trait, the enclosing scope's, or the continuous clock; `nil` once the
    /// scope has ended.
    nonisolated(nonsending) public var clock: (any Clock<Duration>)? {
        get async {
            StubRegistry.shared.withIsolation { $0.scopes[id]?.clock.base }
        }
    }
}
