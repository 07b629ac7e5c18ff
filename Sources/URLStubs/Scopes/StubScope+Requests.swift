/// Reading the requests a scope received.
extension StubScope {
    /// Every request the scope received, in the order it arrived, answered or not.
    ///
    /// A request made in a nested scope is recorded in that scope and in every scope
    /// enclosing it. The global scope records only requests made outside any scope
    /// (the most recent 10,000). Empty once the scope has ended.
    public var requests: [RecordedRequest] {
        get async {
            await StubRegistry.shared.requests(in: self)
        }
    }

    /// The requests the scope received that match `pattern`, in order.
    public func requests(matching pattern: RequestPattern) async -> [RecordedRequest] {
        await requests.filter { StubRegistry.matches(pattern, $0) }
    }

    /// Returns the first request of the scope that matches `pattern`, waiting up to
    /// `timeout` for it to arrive.
    ///
    /// Use it for code that sends requests in the background. A request that already
    /// arrived is returned at once.
    ///
    /// - Throws: ``RequestWaitError/timedOut(pattern:timeout:scope:received:)`` when
    ///   none arrives in time, ``RequestWaitError/scopeEnded(scope:pattern:)`` when the
    ///   scope ends first, ``RequestWaitError/cancelled(pattern:)`` when the waiting
    ///   task is cancelled.
    public func waitForRequest(
        matching pattern: RequestPattern = .anyRequest,
        timeout: Duration = .seconds(10)
    ) async throws -> RecordedRequest {
        try await StubRegistry.shared.waitForRequest(matching: pattern, in: self, timeout: timeout)
    }
}
