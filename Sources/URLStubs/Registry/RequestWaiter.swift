/// A caller suspended in ``StubScope/waitForRequest(matching:timeout:)``
/// until a matching request arrives, the wait times out, or the scope ends.
final class RequestWaiter {
    let pattern: RequestPattern
    private var continuation: CheckedContinuation<RecordedRequest, any Error>?
    /// The task that ends the wait when the timeout passes.
    var timeout: Task<Void, Never>?

    init(pattern: RequestPattern, continuation: CheckedContinuation<RecordedRequest, any Error>) {
        self.pattern = pattern
        self.continuation = continuation
    }

    /// Resumes the caller once, and cancels the timeout; later calls do nothing.
    func resume(with result: Result<RecordedRequest, any Error>) {
        continuation?.resume(with: result)
        continuation = nil
        timeout?.cancel()
        timeout = nil
    }
}

/// Why waiting for a request ended without one.
public enum RequestWaitError: Error, Sendable, CustomStringConvertible {
    /// No matching request arrived within the timeout.
    case timedOut(pattern: String, timeout: Duration, scope: String, received: [String])
    /// The scope ended while waiting.
    case scopeEnded(scope: String, pattern: String)
    /// The waiting task was cancelled.
    case cancelled(pattern: String)

    /// A sentence saying what was awaited and why the wait ended.
    public var description: String {
        switch self {
        case let .timedOut(pattern, timeout, scope, received):
            let seen = received.isEmpty ? "it received no requests" : "it received: " + received.joined(separator: ", ")
            return "URLStubs: no request matching \(pattern) arrived in \(scope) within \(timeout); \(seen)."
        case let .scopeEnded(scope, pattern):
            return "URLStubs: \(scope) ended while waiting for a request matching \(pattern)."
        case let .cancelled(pattern):
            return "URLStubs: the wait for a request matching \(pattern) was cancelled."
        }
    }
}

extension StubRegistry {
    /// Returns the first request of `scope` that matches `pattern`, waiting for it
    /// for at most `timeout`.
    func waitForRequest(matching pattern: RequestPattern, in scope: StubScope, timeout: Duration) async throws -> RecordedRequest {
        guard let namespace = namespaces[scope.id] else {
            throw RequestWaitError.scopeEnded(scope: scope.description, pattern: pattern.description)
        }
        if let request = namespace.requests.first(where: { Self.matches(pattern, $0) }) {
            return request
        }
        let id = nextWaiterID
        nextWaiterID += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let waiter = RequestWaiter(pattern: pattern, continuation: continuation)
                namespace.waiters[id] = waiter
                waiter.timeout = Task {
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    self.endWait(id, in: scope) { namespace in
                        RequestWaitError.timedOut(
                            pattern: pattern.description,
                            timeout: timeout,
                            scope: namespace.title,
                            received: namespace.requests.map(\.description)
                        )
                    }
                }
            }
        } onCancel: {
            Task { await self.endWait(id, in: scope) { _ in RequestWaitError.cancelled(pattern: pattern.description) } }
        }
    }

    private func endWait(_ id: UInt64, in scope: StubScope, error: (Namespace) -> RequestWaitError) {
        guard let namespace = namespaces[scope.id], let waiter = namespace.waiters.removeValue(forKey: id) else { return }
        waiter.resume(with: .failure(error(namespace)))
    }

    /// Resumes the waiters of `namespace` that `request` satisfies.
    func notifyWaiters(of request: RecordedRequest, in namespace: Namespace) {
        guard !namespace.waiters.isEmpty else { return }
        for (id, waiter) in namespace.waiters where Self.matches(waiter.pattern, request) {
            namespace.waiters[id] = nil
            waiter.resume(with: .success(request))
        }
    }

    static func matches(_ pattern: RequestPattern, _ request: RecordedRequest) -> Bool {
        pattern.evaluate(request, target: RequestTarget(request.url), exhaustive: false).isMatch
    }
}
