import Foundation

/// Building blocks for test-framework integrations (`URLStubsTesting`): running a
/// body in a new scope without throwing its problems, and scopes whose lifetime is
/// not a closure around `async` code, such as XCTest's synchronous `invokeTest()`.
@_spi(Integration)
extension StubScope {
    /// What running a body in a new scope produced: the body's result, and the
    /// problems found when the scope ended.
    public struct Outcome<Value> {
        /// What the body returned or threw.
        public let result: Swift.Result<Value, any Error>
        /// The scope the body ran in.
        public let scope: StubScope
        /// The scope's name and where it was opened, for ``title``.
        let name: String?
        let location: StubSourceLocation?
        /// The scope written for messages; built when asked, as a scope that ends
        /// with no problem is never written.
        public var title: String {
            ScopeMessages.title(of: scope, name: name, location: location)
        }
        /// Every unmatched request, unmet expectation, unusable stub and abandoned
        /// request of the scope; see ``StubProblem/isWarning``.
        public let problems: [StubProblem]
        /// Every request the scope received, with its outcome: always when the
        /// scope has a problem, and otherwise only when the scope was opened
        /// keeping them (empty if not).
        public let exchanges: [RecordedExchange]
        /// Each stub the scope had, with how many requests it answered; empty
        /// unless the scope was opened keeping it.
        public let usage: [StubUsage]
        /// The seed lines of the scope's faults and response order (`Faults seeded
        /// with 1234 (replay with URLSTUBS_SEED=1234).`), or `nil` when it was not
        /// seeded: what a test that failed for any reason should say.
        public let seedNote: String?
    }

    /// Runs `body` in a new scope, nested in the current one, and returns its
    /// result together with the problems found when the scope ended, without
    /// throwing them.
    /// A `clock` times the scope's answers (delays, streams, timeouts); `nil`
    /// keeps the enclosing scope's, or the continuous clock. The outcome's
    /// exchanges are kept whether or not the scope has a problem when
    /// `keepingExchanges` is true (when it is false, only if it has one), and
    /// its stubs' use when `keepingUsage` is: a scope that ends with no problem,
    /// as most do, then copies nothing out of its log.
    public static func withNewScope<Value>(
        name: String?,
        location: StubSourceLocation,
        clock: (any Clock<Duration>)? = nil,
        keepingExchanges: Bool = true,
        keepingUsage: Bool = true,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (StubScope) async throws -> Value
    ) async -> Outcome<Value> {
        let scope = openScope(name: name, location: location, clock: clock)
        let result: Swift.Result<Value, any Error>
        do {
            result = .success(try await currentBinding.withValue(scope, operation: {
                _ = isolation // Captured, so that the operation stays on the caller's actor (see withStubScope).
                return try await body(scope)
            }, isolation: isolation))
        } catch {
            result = .failure(error)
        }
        // Most scopes check nothing live: no suspension for them.
        let drift = StubRegistry.shared.hasLiveChecks(in: scope) ? await StubRegistry.shared.finishLiveChecks(in: scope) : []
        let ending = finishScope(scope, drift: drift, keepingExchanges: keepingExchanges, keepingUsage: keepingUsage)
        return Outcome(result: result, scope: scope, name: name, location: location, problems: ending.problems, exchanges: ending.exchanges, usage: ending.usage, seedNote: ending.seedNote)
    }

    /// Opens a new scope nested in the current one, timed by `clock` when one is
    /// given (else by the enclosing scope's clock, or the continuous clock).
    static func openScope(name: String?, location: StubSourceLocation, clock: (any Clock<Duration>)?) -> StubScope {
        StubRegistry.shared.openScope(name: name, parent: current, location: location, clock: clock.map { ScopeClock.given($0) })
    }

    /// Ends `scope`, whose drift checks found `drift`, and returns every problem
    /// (the drift among them) with what the flags ask to keep: its exchanges
    /// (kept anyway when it has a problem) and its stubs' use.
    static func finishScope(_ scope: StubScope, drift: [StubProblem], keepingExchanges: Bool, keepingUsage: Bool) -> StubRegistry.Ending {
        var keeping: StubRegistry.Keeping = []
        if keepingExchanges || !drift.isEmpty {
            keeping.insert(.exchanges)
        }
        if keepingUsage {
            keeping.insert(.usage)
        }
        var ending = StubRegistry.shared.finishScope(scope, keeping: keeping)
        if !drift.isEmpty {
            ending.problems += drift
        }
        return ending
    }

    /// Opens a new top-level scope that the caller must end with
    /// ``closeDetachedScope(_:)``.
    public static func openDetachedScope(name: String?, location: StubSourceLocation?, clock: (any Clock<Duration>)? = nil) -> StubScope {
        StubRegistry.shared.openScope(name: name, parent: nil, location: location, clock: clock.map { ScopeClock.given($0) })
    }

    /// Applies the cassette and seed of `options` to the detached scope `scope`,
    /// blocking the calling thread (XCTest's `invokeTest()` is synchronous) while
    /// the cassette is read on a task of its own; returns why it could not, or
    /// `nil`. A cassette file is resolved with no source file: only
    /// ``CassetteFile/at(_:)`` and a name with a directory can be used; its stubs
    /// are located at the cassette file (`Cassettes/users.har:1` in reports). Options
    /// that set a cassette's mode, redaction or matching without a cassette are
    /// refused, as by `withStubScope(_:)` (``CassetteError/noCassette(fields:)``):
    /// a test case's options are its own, never merged with a suite's.
    public static func applyBlocking(_ options: StubScopeOptions, to scope: StubScope) -> (any Error)? {
        if let refusal = options.cassetteFieldsWithoutCassette {
            return refusal
        }
        if options.cassette == nil {
            if let seed = options.seed {
                StubRegistry.shared.setSeed(seed, of: scope)
            }
            return nil
        }
        let failure = Locked<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                try await scope.apply(options, openedIn: nil, testCase: nil, location: nil)
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        return failure.withLock { $0 }
    }

    /// The seed lines of `scope`'s faults and response order while it is open, or
    /// `nil` when it is not seeded; read it before the scope ends.
    public static func seedNote(of scope: StubScope) -> String? {
        StubRegistry.shared.seedNote(of: scope)
    }

    /// Ends a scope opened with ``openDetachedScope(name:location:)`` and returns its
    /// problems.
    public static func closeDetachedScope(_ scope: StubScope) -> [StubProblem] {
        StubRegistry.shared.endScope(scope)
    }

    /// Ends a scope opened with ``openDetachedScope(name:location:)`` and returns its
    /// problems and its exchanges.
    ///
    /// Its drift checks are waited for first, blocking the calling thread (XCTest's
    /// `invokeTest()` is synchronous); they run on tasks of their own.
    public static func finishDetachedScope(_ scope: StubScope) -> (problems: [StubProblem], exchanges: [RecordedExchange]) {
        let drift = Locked<[StubProblem]>([])
        if StubRegistry.shared.hasLiveChecks(in: scope) {
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                let problems = await StubRegistry.shared.finishLiveChecks(in: scope)
                drift.withLock { $0 = problems }
                done.signal()
            }
            done.wait()
        }
        let ending = StubRegistry.shared.finishScope(scope)
        return (ending.problems + drift.withLock { $0 }, ending.exchanges)
    }

    /// Each stub of the scope, oldest first, with how many requests it answered so far.
    nonisolated(nonsending) public var usage: [StubUsage] {
        get async {
            StubRegistry.shared.usage(in: self)
        }
    }

    /// Runs the synchronous `body` with `scope` current; tasks that `body` creates
    /// inherit it.
    public static func withBinding<Value>(_ scope: StubScope, _ body: () throws -> Value) rethrows -> Value {
        try currentBinding.withValue(scope, operation: body)
    }
}

@_spi(Integration)
extension StubScope.Outcome: Sendable where Value: Sendable {}
