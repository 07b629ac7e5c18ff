/// A caller suspended in ``StubScope/waitForRequests(matching:count:timeout:)``
/// until enough matching requests arrive, the wait times out, or the scope ends.
///
/// Touched only while the registry's lock is held, except ``resume(with:)``, which
/// is called once, after the waiter was removed from its scope under the lock.
final class RequestWaiter: @unchecked Sendable {
    // @unchecked: `collected` changes only under the registry's lock while the
    // waiter is listed in a scope; `continuation` is resumed once, by whoever
    // removed the waiter from that list.
    let pattern: RequestPattern
    /// How many matching requests the caller waits for.
    let count: Int
    /// The matching requests so far, in order.
    private(set) var collected: [RecordedRequest]
    private let continuation: CheckedContinuation<[RecordedRequest], any Error>
    /// The task that ends the wait when the timeout passes, once armed; or that
    /// the wait ended (which may come before the task is armed).
    private let timer = Locked(Timer.unarmed)
    /// How long the caller is prepared to wait.
    let wait: Duration

    init(pattern: RequestPattern, count: Int, collected: [RecordedRequest], wait: Duration, continuation: CheckedContinuation<[RecordedRequest], any Error>) {
        self.wait = wait
        self.pattern = pattern
        self.count = count
        self.collected = collected
        self.continuation = continuation
    }

    /// Adds a matching request; returns whether the wait is now complete.
    func collect(_ request: RecordedRequest) -> Bool {
        collected.append(request)
        return collected.count >= count
    }

    /// Where the wait's timer is.
    private enum Timer {
        case unarmed
        case armed(Task<Void, Never>)
        case waitEnded
    }

    /// Keeps `task`, which ends the wait when the timeout passes, to be cancelled
    /// when the wait ends; cancels it at once when the wait has ended already (a
    /// request completed it while the wait was being set up), so that no timer
    /// outlives its wait.
    func arm(_ task: Task<Void, Never>) {
        let hasEnded = timer.withLock { timer -> Bool in
            if case .waitEnded = timer { return true }
            timer = .armed(task)
            return false
        }
        if hasEnded {
            task.cancel()
        }
    }

    /// Resumes the caller and cancels the timeout; call it once, outside the lock.
    func resume(with result: Result<[RecordedRequest], any Error>) {
        continuation.resume(with: result)
        let armed = timer.withLock { timer -> Task<Void, Never>? in
            defer { timer = .waitEnded }
            if case let .armed(task) = timer { return task }
            return nil
        }
        armed?.cancel()
    }
}

extension StubRegistry {
    /// Returns the first `count` requests of `scope` that match `pattern`, waiting
    /// for them for at most `timeout`.
    ///
    /// On the caller's actor: requests that have already arrived (or a scope that
    /// has ended) are answered without leaving it, unless the pattern has
    /// predicates; only a wait does.
    nonisolated(nonsending) func waitForRequests(matching pattern: RequestPattern, count: Int, in scope: StubScope, timeout: Duration) async throws -> [RecordedRequest] {
        guard timeout >= .zero else {
            throw RequestWaitError(.negativeTimeout, pattern: pattern, scope: scope, expected: count, timeout: timeout)
        }
        // Looked at here first: the operation of withTaskCancellationHandler below is
        // nonisolated, so reaching it leaves the caller's actor. Not with predicates:
        // they run at most once per request each time it is matched, and a wait
        // would match the requests already logged a second time below.
        if !pattern.hasPredicates {
            switch startWait(for: pattern, count: count, in: scope, timeout: timeout, registering: nil) {
            case .ended:
                throw RequestWaitError(.scopeEnded, pattern: pattern, scope: scope, expected: count, timeout: timeout)
            case let .arrived(requests):
                return requests
            case .waiting, .notYet:
                break
            }
        }
        let id = withIsolation { registry in
            defer { registry.nextWaiterID += 1 }
            return registry.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                switch startWait(for: pattern, count: count, in: scope, timeout: timeout, registering: (id, continuation)) {
                case .ended:
                    continuation.resume(throwing: RequestWaitError(.scopeEnded, pattern: pattern, scope: scope, expected: count, timeout: timeout))
                case let .arrived(requests):
                    continuation.resume(returning: requests)
                case .notYet:
                    preconditionFailure("A wait that registers its waiter is never left not yet started.")
                case let .waiting(waiter):
                    let timer = Task {
                        guard await sleepUnlessCancelled(for: timeout) else { return }
                        self.endWait(id, in: scope) { scopeState, waiter in
                            RequestWaitError(
                                .timedOut,
                                pattern: pattern,
                                scope: scope,
                                scopeTitle: scopeState.title,
                                expected: count,
                                arrived: waiter.collected,
                                received: scopeState.requests,
                                timeout: timeout
                            )
                        }
                    }
                    waiter.arm(timer)
                    if Task.isCancelled {
                        endWait(id, in: scope) { _, waiter in RequestWaitError(.cancelled, pattern: pattern, scope: scope, expected: count, arrived: waiter.collected, timeout: timeout) }
                    }
                }
            }
        } onCancel: {
            self.endWait(id, in: scope) { _, waiter in RequestWaitError(.cancelled, pattern: pattern, scope: scope, expected: count, arrived: waiter.collected, timeout: timeout) }
        }
    }

    /// How a wait for requests begins.
    private enum WaitStart {
        /// The scope has ended.
        case ended
        /// Enough matching requests have arrived: the first `count` of them.
        case arrived([RecordedRequest])
        /// Not enough have: the waiter was registered.
        case waiting(RequestWaiter)
        /// Not enough have, and no waiter was asked to be registered.
        case notYet
    }

    /// Compares the requests already in `scope`'s log with `pattern` (one with
    /// predicates, the user's code, outside the lock, round after round, until no
    /// request came in meanwhile); when fewer than `count` match, registers the
    /// waiter `registering` gives (its id and continuation), if any, in the same
    /// critical section that saw them.
    nonisolated private func startWait(
        for pattern: RequestPattern,
        count: Int,
        in scope: StubScope,
        timeout: Duration,
        registering waiter: (id: UInt64, continuation: CheckedContinuation<[RecordedRequest], any Error>)?
    ) -> WaitStart {
        let hasPredicates = pattern.hasPredicates
        var arrived: [RecordedRequest] = []
        var seen = 0
        while true {
            var unseen: [RecordedRequest] = []
            let start = withIsolation { registry -> WaitStart? in
                guard let scopeState = registry.scopes[scope.id] else { return .ended }
                unseen = scopeState.log.added(after: seen).map(\.request)
                seen = scopeState.log.added
                if hasPredicates, !unseen.isEmpty {
                    return nil
                }
                arrived += unseen.filter { Self.matches(pattern, $0) }
                if arrived.count >= count {
                    return .arrived(Array(arrived.prefix(count)))
                }
                guard let waiter else { return .notYet }
                let registered = RequestWaiter(pattern: pattern, count: count, collected: arrived, wait: timeout, continuation: waiter.continuation)
                scopeState.waiters[waiter.id] = registered
                return .waiting(registered)
            }
            if let start {
                return start
            }
            arrived += unseen.filter { Self.matches(pattern, $0) }
        }
    }

    /// Ends the wait `id` with the error `error` builds, if it is still waiting.
    nonisolated private func endWait(_ id: UInt64, in scope: StubScope, error: @Sendable (ScopeState, RequestWaiter) -> RequestWaitError) {
        let ended = withIsolation { registry -> (RequestWaiter, RequestWaitError)? in
            guard let scopeState = registry.scopes[scope.id], let waiter = scopeState.waiters.removeValue(forKey: id) else { return nil }
            return (waiter, error(scopeState, waiter))
        }
        if let (waiter, error) = ended {
            waiter.resume(with: .failure(error))
        }
    }

    /// Gives `request` to the waiters `ids` of `scopeState`, which it matches, and
    /// removes those it completes, listing them in `wakeUps` to be resumed once the
    /// lock is released.
    static func collectWaiters(_ ids: [UInt64], satisfiedBy request: RecordedRequest, in scopeState: ScopeState, into wakeUps: inout [(RequestWaiter, [RecordedRequest])]) {
        for id in ids {
            guard let waiter = scopeState.waiters[id], waiter.collect(request) else { continue }
            scopeState.waiters[id] = nil
            wakeUps.append((waiter, waiter.collected))
        }
    }

    /// Whether `request` matches `pattern`, running its predicates: outside the
    /// registry's lock, or for a pattern without any.
    static func matches(_ pattern: RequestPattern, _ request: RecordedRequest) -> Bool {
        pattern.evaluate(request, exhaustive: false).isMatch
    }
}
