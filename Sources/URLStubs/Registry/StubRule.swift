/// A rule an optional feature gives a stub when it is registered (a scenario's
/// condition and transition): whether the stub may answer now, why not, and what
/// answering changes.
///
/// Read and applied only in the registry's isolation: ``apply()`` in the section
/// that takes a use of the stub, so that what it changes is changed exactly once
/// however many requests race for the stub.
protocol StubRule {
    /// Whether the stub may answer now; a stub whose rule does not hold does not
    /// match.
    var holds: Bool { get }

    /// Why the rule does not hold, for near-miss reports; empty when it holds.
    var mismatches: [RequestMismatch] { get }

    /// Makes the change answering brings (moves a scenario).
    func apply()
}

/// What a stub asks of an optional feature as it is registered, made into its
/// ``StubRule`` in the isolated section that registers it (where the feature can
/// look up the state of the stub's scope and of the scopes enclosing it).
protocol StubRuleRequest: Sendable {
    /// The stub's rule in `scopeState`, or why the stub must be refused.
    func rule(in scopeState: ScopeState, of registry: isolated StubRegistry) -> (rule: (any StubRule)?, refusal: String?)
}
