/// The seed a scope was opened with (``StubScopeOptions/seed``) and where it was
/// given: a feature of the scope (see ``ScopeFeature``) with no part in requests,
/// read by the scope's first faults or shuffle call that gives no seed.
final class ScopeSeed: ScopeFeature {
    let seed: UInt64
    let location: StubSourceLocation?

    init(seed: UInt64, location: StubSourceLocation?) {
        self.seed = seed
        self.location = location
    }
}
