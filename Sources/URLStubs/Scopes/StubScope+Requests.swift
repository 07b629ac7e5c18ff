/// Reading the requests a scope received.
extension StubScope {
    /// Every request the scope received, in the order it arrived, answered or not.
    ///
    /// A request made in a nested scope is recorded in that scope and in every scope
    /// enclosing it. The global scope records only requests made outside any scope
    /// (the most recent 10,000). Empty once the scope has ended.
    nonisolated(nonsending) public var requests: [RecordedRequest] {
        get async {
            StubRegistry.shared.requests(in: self)
        }
    }

    /// The most requests made in this scope that waited for their answers at the
    /// same time (a request answered at once counts for its instant), for tests of
    /// rate limiting and concurrency: `#expect(await scope.maxInFlight <= 4)`.
    ///
    /// Requests of nested scopes count in their own scope. Zero once the scope has
    /// ended.
    nonisolated(nonsending) public var maxInFlight: Int {
        get async {
            StubRegistry.shared.withIsolation { $0.scopes[id]?.maxInFlight ?? 0 }
        }
    }

    /// The requests the scope received that match `pattern`, in order.
    nonisolated(nonsending) public func requests(matching pattern: RequestPattern) async -> [RecordedRequest] {
        await requests.filter { StubRegistry.matches(pattern, $0) }
    }

    /// Returns the first request of the scope that matches `pattern`, waiting up to
    /// `timeout` for it to arrive.
    ///
    /// Use it for code that sends requests in the background. A request that already
    /// arrived is returned at once, so calling it twice returns the same request;
    /// to wait for a second one, use ``waitForRequests(matching:count:timeout:)``.
    ///
    /// The timeout is real time and only a failing test waits it out, so the
    /// default is generous: 30 seconds. Tests run in parallel, and on a small
    /// machine a short test can take tens of seconds when the whole suite runs.
    ///
    /// - Throws: ``RequestWaitError`` whose ``RequestWaitError/reason`` is
    ///   ``RequestWaitError/Reason/timedOut`` when none arrives in time,
    ///   ``RequestWaitError/Reason/scopeEnded`` when the scope ends first, and
    ///   ``RequestWaitError/Reason/cancelled`` when the waiting task is cancelled.
    nonisolated(nonsending) public func waitForRequest(
        matching pattern: RequestPattern = .anyRequest,
        timeout: Duration = .seconds(30)
    ) async throws -> RecordedRequest {
        try await waitForRequests(matching: pattern, count: 1, timeout: timeout)[0]
    }

    /// Returns the first `count` requests of the scope that match `pattern`, in
    /// order, waiting up to `timeout` for them to arrive.
    ///
    /// Requests that already arrived count. A `count` below 1 returns at once with
    /// no requests. The default timeout is 30 seconds, as for
    /// ``waitForRequest(matching:timeout:)``.
    ///
    /// - Throws: The errors of ``waitForRequest(matching:timeout:)``; a timeout says
    ///   how many of the requests arrived.
    nonisolated(nonsending) public func waitForRequests(
        matching pattern: RequestPattern = .anyRequest,
        count: Int,
        timeout: Duration = .seconds(30)
    ) async throws -> [RecordedRequest] {
        guard count > 0 else { return [] }
        return try await StubRegistry.shared.waitForRequests(matching: pattern, count: count, in: self, timeout: timeout)
    }
}

extension StubScope {
    /// Every request the scope received, in the order it arrived, with what answered
    /// it and how it ended: a response, a failure, a cancel, or still waiting.
    ///
    /// The same requests as ``requests``; empty once the scope has ended.
    nonisolated(nonsending) public var exchanges: [RecordedExchange] {
        get async {
            StubRegistry.shared.exchanges(in: self)
        }
    }
}
