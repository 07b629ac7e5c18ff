extension StubRegistry {
    /// A faults or shuffle call, as the registry adds it to a scope.
    enum SeededRule {
        case faults(FaultRule)
        case order(ResponseOrderRule)

        var summary: String {
            switch self {
            case let .faults(rule): rule.summary
            case let .order(rule): rule.summary
            }
        }

        var location: StubSourceLocation {
            switch self {
            case let .faults(rule): rule.location
            case let .order(rule): rule.location
            }
        }

        /// The requests the call is for.
        var pattern: RequestPattern {
            switch self {
            case let .faults(rule): rule.pattern
            case let .order(rule): rule.pattern
            }
        }

        var problem: String? {
            switch self {
            case let .faults(rule): rule.problem
            case let .order(rule): rule.problem
            }
        }
    }

    /// Adds `rule` to `scope`, seeding the scope first if it has no seed yet: with
    /// `URLSTUBS_SEED` when set, else `seed`, else the enclosing scope's seed, else a
    /// random one.
    ///
    /// A rule that cannot be used, a `seed` that disagrees with the scope's, and an
    /// unreadable `URLSTUBS_SEED` are problems of the scope at the rule's line; a
    /// rule for the global scope or a scope that has ended is ignored with a warning.
    /// `environment` is the setting of `URLSTUBS_SEED` (read outside the lock).
    nonisolated func add(_ rule: SeededRule, seed: UInt64?, to scope: StubScope, environment: FaultSeed.Setting = FaultSeed.environment) {
        let random = FaultSeed.random()
        let warning = withIsolation { registry -> String? in
            guard !scope.isGlobal else {
                return FaultMessages.globalScope(rule.summary, at: rule.location)
            }
            guard let scopeState = registry.scopes[scope.id] else {
                return FaultMessages.ignored(rule.summary, at: rule.location, scope: scope, hasEnded: scope.id < registry.nextScopeID)
            }
            func report(_ message: String, reason: String) {
                let kind = StubProblem.Kind.invalidFaults(pattern: rule.pattern, reason: reason)
                scopeState.problems.append(StubProblem(kind: kind, message: message, location: rule.location))
            }
            if let problem = rule.problem {
                report(FaultMessages.unusable(rule.summary, reason: problem), reason: problem)
                return nil
            }
            let faults: ScopeFaults
            if let existing = scopeState.feature(ScopeFaults.self) {
                faults = existing
                if let seed, let conflict = existing.conflict(withSeed: seed) {
                    report(FaultMessages.seedProblem(rule.summary, reason: conflict), reason: conflict)
                }
            } else {
                let given = scopeState.feature(ScopeSeed.self)
                if let seed, let given, given.seed != seed {
                    let conflict = FaultMessages.conflictingOptionsSeed(seed, given: given.seed, at: given.location)
                    report(FaultMessages.seedProblem(rule.summary, reason: conflict), reason: conflict)
                }
                let seed = given?.seed ?? seed
                faults = scopeState.attach(ScopeFaults.self) {
                    registry.seed(scopeState, environment: environment, seed: seed, random: random, at: rule.location)
                }
                if case let .invalid(text) = environment {
                    let reason = FaultMessages.invalidEnvironmentSeed(text, used: faults.seed)
                    report(FaultMessages.seedProblem(rule.summary, reason: reason), reason: reason)
                }
            }
            switch rule {
            case let .faults(rule): faults.add(rule)
            case let .order(rule): faults.add(rule)
            }
            return nil
        }
        if let warning {
            Self.warn(warning)
        }
    }

    /// The faults of `scopeState`, seeded by the first rule it gets.
    private func seed(
        _ scopeState: ScopeState,
        environment: FaultSeed.Setting,
        seed: UInt64?,
        random: UInt64,
        at location: StubSourceLocation
    ) -> ScopeFaults {
        if case let .seed(value) = environment {
            return ScopeFaults(seed: value, origin: .environment, requestedSeed: seed, seededAt: location)
        }
        if let seed {
            return ScopeFaults(seed: seed, origin: .explicit, requestedSeed: seed, seededAt: location)
        }
        // The nearest enclosing scope's seed: its faults' or, before its first
        // faults, the one its options give (``setSeed(_:of:)``).
        for ancestor in scopeState.ancestors {
            guard let ancestorState = scopes[ancestor.id] else { continue }
            if let inherited = ancestorState.feature(ScopeFaults.self)?.seed ?? ancestorState.feature(ScopeSeed.self)?.seed {
                return ScopeFaults(seed: inherited, origin: .inherited(ancestor), requestedSeed: nil, seededAt: location)
            }
        }
        return ScopeFaults(seed: random, origin: .random, requestedSeed: nil, seededAt: location)
    }

    /// Makes `seed` the seed of `scope`'s first faults or shuffle call that gives
    /// none (``StubScopeOptions/seed``).
    nonisolated func setSeed(_ seed: UInt64, of scope: StubScope) {
        withIsolation { registry in
            guard let scopeState = registry.scopes[scope.id] else { return }
            scopeState.add(ScopeSeed(seed: seed, location: scopeState.location))
        }
    }

    /// The seed of `scope`'s faults and response order, or `nil` when it has neither.
    nonisolated func seed(of scope: StubScope) -> UInt64? {
        withIsolation { $0.scopes[scope.id]?.feature(ScopeFaults.self)?.seed }
    }

    /// The seed lines of `scope` while it is open, or `nil` when it is not seeded.
    nonisolated func seedNote(of scope: StubScope) -> String? {
        withIsolation { registry in
            registry.scopes[scope.id].flatMap { registry.note(of: $0) }
        }
    }
}
