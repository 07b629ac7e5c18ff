/// A caller suspended in ``StubScope/waitForRequests(matching:count:timeout:)``
/// until enough matching requests arrive, the wait times out, or the scope ends.
final class RequestWaiter {
    let pattern: RequestPattern
    /// How many matching requests the caller waits for.
    let count: Int
    /// The matching requests so far, in order.
    private(set) var collected: [RecordedRequest]
    private var continuation: CheckedContinuation<[RecordedRequest], any Error>?
    /// The task that ends the wait when the timeout passes.
    var timeout: Task<Void, Never>?

    init(pattern: RequestPattern, count: Int, collected: [RecordedRequest], continuation: CheckedContinuation<[RecordedRequest], any Error>) {
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

    /// Resumes the caller once, and cancels the timeout; later calls do nothing.
    func resume(with result: Result<[RecordedRequest], any Error>) {
        continuation?.resume(with: result)
        continuation = nil
        timeout?.cancel()
        timeout = nil
    }
}

/// Why waiting for a request ended without one.
public enum RequestWaitError: Error, Sendable, CustomStringConvertible {
    /// Fewer matching requests than awaited arrived within the timeout.
    case timedOut(pattern: String, expected: Int, arrived: Int, timeout: Duration, scope: String, received: [String])
    /// The scope ended while waiting.
    case scopeEnded(scope: String, pattern: String)
    /// The waiting task was cancelled.
    case cancelled(pattern: String)

    /// A sentence saying what was awaited and why the wait ended.
    public var description: String {
        switch self {
        case let .timedOut(pattern, expected, arrived, timeout, scope, received):
            let seen = received.isEmpty ? "it received no requests" : "it received: " + received.joined(separator: ", ")
            let what = expected == 1 ? "no request matching \(pattern) arrived" : "\(arrived) of \(expected) requests matching \(pattern) arrived"
            return "URLStubs: \(what) in \(scope) within \(timeout); \(seen)."
        case let .scopeEnded(scope, pattern):
            return "URLStubs: \(scope) ended while waiting for a request matching \(pattern)."
        case let .cancelled(pattern):
            return "URLStubs: the wait for a request matching \(pattern) was cancelled."
        }
    }
}

extension StubRegistry {
    /// Returns the first `count` requests of `scope` that match `pattern`, waiting
    /// for them for at most `timeout`.
    func waitForRequests(matching pattern: RequestPattern, count: Int, in scope: StubScope, timeout: Duration) async throws -> [RecordedRequest] {
        guard let namespace = namespaces[scope.id] else {
            throw RequestWaitError.scopeEnded(scope: scope.description, pattern: pattern.description)
        }
        let arrived = namespace.requests.filter { Self.matches(pattern, $0) }
        if arrived.count >= count {
            return Array(arrived.prefix(count))
        }
        let id = nextWaiterID
        nextWaiterID += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let waiter = RequestWaiter(pattern: pattern, count: count, collected: arrived, continuation: continuation)
                namespace.waiters[id] = waiter
                waiter.timeout = Task {
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    self.endWait(id, in: scope) { namespace, waiter in
                        RequestWaitError.timedOut(
                            pattern: pattern.description,
                            expected: count,
                            arrived: waiter.collected.count,
                            timeout: timeout,
                            scope: namespace.title,
                            received: namespace.requests.map(\.description)
                        )
                    }
                }
            }
        } onCancel: {
            Task { await self.endWait(id, in: scope) { _, _ in RequestWaitError.cancelled(pattern: pattern.description) } }
        }
    }

    private func endWait(_ id: UInt64, in scope: StubScope, error: (Namespace, RequestWaiter) -> RequestWaitError) {
        guard let namespace = namespaces[scope.id], let waiter = namespace.waiters.removeValue(forKey: id) else { return }
        waiter.resume(with: .failure(error(namespace, waiter)))
    }

    /// Resumes the waiters of `namespace` that `request` satisfies.
    func notifyWaiters(of request: RecordedRequest, in namespace: Namespace) {
        guard !namespace.waiters.isEmpty else { return }
        for (id, waiter) in namespace.waiters where Self.matches(waiter.pattern, request) && waiter.collect(request) {
            namespace.waiters[id] = nil
            waiter.resume(with: .success(waiter.collected))
        }
    }

    static func matches(_ pattern: RequestPattern, _ request: RecordedRequest) -> Bool {
        pattern.evaluate(request, target: RequestTarget(request.url), exhaustive: false).isMatch
    }
}
