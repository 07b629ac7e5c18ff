#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The single owner of every scope's stubs, exchange log and bookkeeping: an actor
/// whose executor is a lock (``RegistryExecutor``), entered synchronously.
///
/// Foundation asks the URL protocol for an answer in `startLoading()`, on a thread
/// of its own (the session's work queue on Linux, CFNetwork's client thread on
/// Apple platforms), and the answer must be given on that thread. A hop onto an
/// actor's executor from there would cost a thread hand-off per request. So every
/// caller, the protocol, direct answers and the async API alike, enters the
/// registry's isolation inline with ``withIsolation(_:)``: it takes the executor's
/// lock and runs isolated to the registry on its own thread, for a few
/// microseconds. Per-scope state is the actor's, so the compiler, not a
/// convention, proves that every access to it is isolated. The rules that keep this
/// safe:
/// - everything about stubs, uses, scenarios, logs and in-flight requests changes
///   inside one isolated section, so a stub's last use is taken, and a scenario
///   moved, exactly once however many requests race for it;
/// - nothing inside an isolated section calls Foundation's URL loading, resumes a
///   continuation, or writes to a file: such work is collected and done after it
///   (failing abandoned requests, waking waiters, warnings);
/// - nor the user's code: a section that needs a predicate's result changes
///   nothing, the predicate runs outside, and matching starts again with its
///   result (see ``resolve(_:body:route:pending:)``);
/// - a section never enters the registry again: the lock is not recursive.
actor StubRegistry {
    /// The registry of the process.
    static let shared = StubRegistry()

    /// How many unscoped requests the global scope's log keeps (the most recent).
    static let globalLogLimit = 10_000

    /// The lock that is the registry's executor.
    nonisolated let executor = RegistryExecutor()

    /// Every open scope, by id, the global scope included.
    var scopes: [UInt64: ScopeState]
    /// The global scope's state, which is always open: every request's chain ends
    /// with it, found without a lookup.
    let globalState: ScopeState
    /// The ids the next scope, stub, request and waiter get.
    var nextScopeID: UInt64 = 1
    var nextStubID: UInt64 = 1
    var nextRequestNumber: UInt64 = 1
    var nextWaiterID: UInt64 = 1

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Creates a registry holding only the global scope, whose log keeps the most
    /// recent `globalLogLimit` unscoped requests.
    init(globalLogLimit: Int = StubRegistry.globalLogLimit) {
        let global = ScopeState(scope: .global, name: nil, ancestors: [], location: nil, clock: .continuous(), logLimit: globalLogLimit)
        globalState = global
        scopes = [StubScope.global.id: global]
    }

    /// Runs `body` isolated to the registry, on the calling thread: takes the
    /// executor's lock, and runs `body` while holding it.
    ///
    /// Holding the lock is being isolated, so `body` runs as `assumeIsolated` runs
    /// its operation once its check passed. Debug builds (the tests) also make the
    /// runtime check it first, where the runtime can ask a custom executor (the
    /// Swift 6.0 runtime: Linux, macOS 15, iOS 18 and their siblings;
    /// ``RegistryExecutor/checkIsolated()`` answers), then run `body` as release
    /// builds do. Release builds skip that check: it proves what the lock already
    /// does, and cost 3-4% of a request's CPU in the paired benchmark. Older Apple
    /// runtimes could not answer it at all: they only know the executor of the job
    /// a thread runs, and would stop the process.
    ///
    /// `body` must be short, must not enter the registry again and must not block,
    /// call Foundation's URL loading, run the user's code or resume continuations:
    /// collect such work and do it after returning.
    @inline(__always)
    nonisolated func withIsolation<Result: Sendable>(_ body: (isolated StubRegistry) -> Result) -> Result {
        executor.withLock {
            #if DEBUG
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                preconditionIsolated("URLStubs' registry was entered without its lock")
            }
            #endif
            // The lock is the executor, and this thread holds it: this is isolated.
            return unsafeBitCast(IsolatedEntry<Result>(call: { registry, body in body(registry) }), to: PlainEntry<Result>.self).call(self, body)
        }
    }

    /// A function that runs a body of ``withIsolation(_:)`` isolated to the
    /// registry it is given, and ``PlainEntry`` the same function without that
    /// isolation (which changes nothing in how it is called).
    ///
    /// The entry is cast, not the body. A body is a non-escaping closure, which can
    /// be cast only once `withoutActuallyEscaping` made it escaping, with a check
    /// after each call that nothing kept it, and a box on the heap for a body that
    /// captures anything. The entry takes the body as the non-escaping argument it
    /// is, and captures nothing once specialized for its `Result`: a release build
    /// allocates nothing for a critical section. (Unspecialized, as in a debug
    /// build, the entry's context holds `Result`'s type: one allocation per
    /// critical section, as the box was, without the check.) It is cast inside a
    /// struct, not as a bare function: a function passed to `unsafeBitCast` as
    /// itself is first converted to the most general form of its type, a thunk
    /// allocated for every call; a struct's field keeps the form it was stored in.
    private struct IsolatedEntry<Result> {
        let call: (isolated StubRegistry, (isolated StubRegistry) -> Result) -> Result
    }

    /// See ``IsolatedEntry``.
    private struct PlainEntry<Result> {
        let call: (StubRegistry, (isolated StubRegistry) -> Result) -> Result
    }

    /// Opens a new scope inside `parent` (or at the top when `parent` is nil).
    nonisolated func openScope(name: String?, parent: StubScope?, location: StubSourceLocation?, clock: ScopeClock? = nil) -> StubScope {
        StubInterception.prepare()
        return withIsolation { registry in
            let scope = StubScope(id: registry.nextScopeID)
            registry.nextScopeID += 1
            var ancestors: [StubScope] = []
            if let parent, !parent.isGlobal {
                ancestors = [parent] + (registry.scopes[parent.id]?.ancestors ?? [])
            }
            // A nested scope keeps the clock of the scope it is nested in unless given one.
            let inherited = parent.flatMap { registry.scopes[$0.id] }.map { $0.clock }.flatMap { $0.isContinuous ? nil : $0 }
            let scopeState = ScopeState(scope: scope, name: name, ancestors: ancestors, location: location, clock: clock ?? inherited ?? .continuous())
            registry.scopes[scope.id] = scopeState
            return scope
        }
    }

    /// What a scope left when it ended.
    struct Ending {
        /// Every unmatched request, unmet expectation, unusable stub, abandoned
        /// request, drift and refused cassette of the scope.
        var problems: [StubProblem]
        /// Every request the scope received, with its outcome.
        var exchanges: [RecordedExchange]
        /// Each stub the scope had, with how many requests it answered.
        var usage: [StubUsage]
        /// The seed lines of the scope's faults and response order (its own and
        /// its enclosing scopes'), or `nil` when none is seeded: the note of its
        /// features (see ``ScopeFeature/note(for:)``).
        var seedNote: String? = nil
    }

    /// Ends `scope`: verifies its stubs' expectations, fails its requests still in
    /// flight and its waiters, writes its cassette, frees its state, and returns
    /// every problem.
    nonisolated func endScope(_ scope: StubScope) -> [StubProblem] {
        finishScope(scope).problems
    }

    /// What ending a scope reads besides its problems: its exchanges (always read
    /// when it has a problem, for the problems to be scrubbed of their secrets),
    /// and its stubs' use. A scope that ends with no problem, as most do, need not
    /// copy its log out.
    struct Keeping: OptionSet {
        let rawValue: Int
        /// Every exchange, whether or not the scope has a problem.
        static let exchanges = Keeping(rawValue: 1)
        /// Each stub's use.
        static let usage = Keeping(rawValue: 2)
        static let all: Keeping = [.exchanges, .usage]
    }

    /// Ends `scope` as ``endScope(_:)`` does, and returns what `keeping` asks for
    /// too: its exchanges (read anyway when it has a problem) and stub use.
    nonisolated func finishScope(_ scope: StubScope, keeping: Keeping = .all) -> Ending {
        let removed = withIsolation { registry -> Removal? in
            guard !scope.isGlobal, let ended = registry.scopes.removeValue(forKey: scope.id) else { return nil }
            // Most scopes end with nothing in flight: no sort (generic code in a debug build).
            let flights = ended.inFlight.isEmpty ? [] : ended.inFlight.values.sorted { $0.request.sequenceNumber < $1.request.sequenceNumber }
            // With nothing in flight there is nothing to fail first: its log is read now.
            return Removal(ended: EndedScope(state: ended), flights: flights, seedNote: registry.note(of: ended), read: flights.isEmpty ? Self.read(ended, keeping: keeping) : nil)
        }
        guard let removed else {
            return Ending(problems: [], exchanges: [], usage: [])
        }
        let (endedScope, flights, seedNote) = (removed.ended, removed.flights, removed.seedNote)
        let ended = endedScope.state
        // Messages and errors are built outside the lock (10,000 in flight is 10,000
        // of each), each once; the log then learns the outcomes in one short section.
        let abandoned = flights.map { flight in
            let message = FaultMessages.noting(FailureMessages.abandoned(flight.request, in: ended.title), seedNote)
            return (flight, message, StubFailure.error(message, url: flight.request.url))
        }
        // Its stubs' counts too: an exchange of a nested scope that outlives this one
        // may still count a cancellation on one of them.
        let read = removed.read ?? withIsolation { _ -> Read in
            for (flight, _, error) in abandoned {
                // Over an answer its producer wrote down before the end took it: the
                // producer drops that answer, and the request fails as abandoned.
                flight.exchange.decide(.abandoned(error))
            }
            // Its abandoned requests are problems: the exchanges are read.
            return Self.read(endedScope.state, keeping: keeping.union(.exchanges))
        }
        var warnings: [StubProblem] = []
        var producers: [Task<Void, Never>] = []
        for (flight, message, error) in abandoned {
            if let producer = flight.pending.abandon(with: error) {
                producers.append(producer)
            }
            warnings.append(StubProblem(kind: .abandonedRequest(flight.request), message: message, location: ended.location))
        }
        // Every failure is on its way; only now wake the tasks that were producing
        // the answers, so that thousands of them do not compete with the failures.
        for producer in producers {
            producer.cancel()
        }
        for feature in ended.features {
            feature.closed()
        }
        for waiter in ended.waiters.values {
            waiter.resume(with: .failure(RequestWaitError(.scopeEnded, pattern: waiter.pattern, scope: ended.scope, scopeTitle: ended.title, expected: waiter.count, arrived: waiter.collected, timeout: waiter.wait)))
        }
        // Joined only when there is something to join: appending nothing to an empty
        // array still allocates, and most scopes end with no problem at all.
        var problems = ended.problems
        if !read.unmet.isEmpty {
            problems += read.unmet
        }
        if !warnings.isEmpty {
            problems += warnings
        }
        for feature in ended.features {
            let more = feature.ended(exchanges: read.exchanges, location: ended.location)
            if !more.isEmpty {
                problems += more
            }
        }
        if let seedNote {
            problems = problems.map { $0.noting(seedNote) }
        }
        return Ending(problems: problems, exchanges: read.exchanges, usage: read.usage, seedNote: seedNote)
    }

    /// What an ended scope leaves once every request in it has its outcome: its
    /// exchanges, the problems of its unmet expectations, and its stubs' use.
    ///
    /// Structs rather than tuples, here and in ``Removal``: an optional tuple is
    /// copied through the runtime's generic tuple witnesses, at every scope's end.
    private struct Read {
        let exchanges: [RecordedExchange]
        let unmet: [StubProblem]
        let usage: [StubUsage]
    }

    /// What ending a scope takes out of the registry in its first critical
    /// section: the scope's state, its requests in flight (oldest first), its seed
    /// note, and, when nothing was in flight, what it leaves (see ``Read``).
    private struct Removal {
        let ended: EndedScope
        let flights: [InFlightRequest]
        let seedNote: String?
        let read: Read?
    }

    /// Reads what `state`, an ended scope's, leaves (see ``Read``) and `keeping`
    /// asks for; in the registry's isolation, as its exchanges and counts may
    /// still change.
    private static func read(_ state: ScopeState, keeping: Keeping) -> Read {
        // Loops by index: in a debug build (where tests run) `map` and `compactMap`
        // are generic code, a chain of calls for each element.
        let entries = state.entries
        var unmet: [StubProblem] = []
        var index = 0
        while index < entries.count {
            if let problem = ScopeMessages.unmetExpectation(of: entries[index], in: state.scope) {
                unmet.append(problem)
            }
            index += 1
        }
        // Problems come from the state, its unmet expectations, its abandoned
        // requests (then the caller keeps the exchanges) and its features, which
        // read the exchanges.
        let mayHaveProblems = !state.problems.isEmpty || !unmet.isEmpty || !state.features.isEmpty
        var exchanges: [RecordedExchange] = []
        if keeping.contains(.exchanges) || mayHaveProblems {
            let logged = state.log.inOrder
            exchanges.reserveCapacity(logged.count)
            index = 0
            while index < logged.count {
                exchanges.append(logged[index].snapshot)
                index += 1
            }
        }
        return Read(exchanges: exchanges, unmet: unmet, usage: keeping.contains(.usage) ? state.usage : [])
    }

    /// Each stub of `scope`, oldest first, with its hits so far.
    nonisolated func usage(in scope: StubScope) -> [StubUsage] {
        withIsolation { $0.scopes[scope.id]?.usage ?? [] }
    }

    /// Whether `scope` is open (the global scope always is).
    nonisolated func isOpen(_ scope: StubScope) -> Bool {
        withIsolation { $0.scopes[scope.id] != nil }
    }

    /// Registers a stub in `scope`, with the rule a feature gives it (`request`: a
    /// scenario's condition and transition) or refused with the reason the feature
    /// gives; returns its id, or `nil` when the scope has ended.
    nonisolated func register(
        _ pattern: RequestPattern,
        source: StubEntry.Source,
        expectation: StubExpectation,
        location: StubSourceLocation,
        origin: StubEntry.Origin = .written,
        rule request: (any StubRuleRequest)? = nil,
        in scope: StubScope
    ) -> UInt64? {
        let (id, warning) = withIsolation { registry -> (UInt64?, String?) in
            guard let scopeState = registry.scopes[scope.id] else {
                let hasEnded = scope.id < registry.nextScopeID
                return (nil, ScopeMessages.ignoredStub(pattern, at: location, scope: scope, hasEnded: hasEnded))
            }
            // Most stubs have no rule. The rule's parts are taken apart here: an
            // optional tuple of them was copied, part by part, at every read.
            var rule: (any StubRule)?
            var ruleRefusal: String?
            if let request {
                (rule, ruleRefusal) = request.rule(in: scopeState, of: registry)
            }
            let entry = StubEntry(
                id: registry.nextStubID,
                pattern: pattern,
                source: source,
                expectation: expectation,
                location: location,
                origin: origin,
                rule: rule,
                ruleRefusal: ruleRefusal
            )
            registry.nextStubID += 1
            let refusal = pattern.problem.map { (reason: $0, message: ScopeMessages.unusablePattern(pattern, reason: $0)) }
                ?? entry.refusal.map { (reason: $0, message: ScopeMessages.refusedStub(pattern, reason: $0)) }
            scopeState.add(entry)
            guard let refusal else { return (entry.id, nil) }
            if scope.isGlobal {
                return (entry.id, refusal.message)
            }
            let kind = StubProblem.Kind.invalidStub(stub: entry.handle(in: scope), reason: refusal.reason)
            scopeState.problems.append(StubProblem(kind: kind, message: refusal.message, location: location))
            return (entry.id, nil)
        }
        if let warning {
            Self.warn(warning)
        }
        return id
    }

    /// Removes the stub `id` from `scope`; returns whether it was there.
    nonisolated func removeStub(_ id: UInt64, from scope: StubScope) -> Bool {
        withIsolation { $0.scopes[scope.id]?.remove(stubID: id) ?? false }
    }

    /// Removes every stub of `scope`, keeping its exchange log.
    nonisolated func removeAllStubs(from scope: StubScope) {
        withIsolation { $0.scopes[scope.id]?.removeAll() }
    }

    /// How many requests the stub `id` of `scope` has answered, or `nil` when the
    /// stub or its scope is gone.
    nonisolated func hits(ofStub id: UInt64, in scope: StubScope) -> Int? {
        withIsolation { $0.scopes[scope.id]?.entries.first { $0.id == id }?.hits }
    }

    /// The requests `scope` received, in order.
    nonisolated func requests(in scope: StubScope) -> [RecordedRequest] {
        withIsolation { $0.scopes[scope.id]?.requests ?? [] }
    }

    /// The requests `scope` received, in order, with their outcomes.
    nonisolated func exchanges(in scope: StubScope) -> [RecordedExchange] {
        withIsolation { $0.scopes[scope.id]?.log.inOrder.map(\.snapshot) ?? [] }
    }

    /// Writes a warning that no test owns to standard error.
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data((ScopeMessages.warning(message) + "\n").utf8))
    }
}
