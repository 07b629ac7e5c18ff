/// Failing a seeded share of requests, and adding latency.
extension StubScope {
    /// Fails a seeded share of the requests that match `pattern` and that a stub of
    /// this scope (or of an enclosing or the global scope) answers, and adds latency
    /// to them, the same way every time the test runs with the same seed.
    ///
    /// ```swift
    /// await scope.stub(.get("https://api.example.com/orders"), with: .json(orders))
    /// await scope.injectFaults(rate: 0.3, faults: [.timedOut, .serviceUnavailable], seed: 42)
    /// ```
    ///
    /// Whether a request fails, which fault it fails with and its latency depend only
    /// on the seed and on the request's identity: its method, its URL (query items
    /// in any order are the same URL) and how many identical requests (same method
    /// and URL) this scope received before it. They do not depend on timing or on
    /// other requests, so requests running in parallel get the same decisions in
    /// every run. Raising `rate` keeps every request a lower rate failed, and fails
    /// more.
    ///
    /// A failed request is logged like any other, with the fault as its outcome and
    /// no source. It is answered by the fault, not by the stub: it takes none of the
    /// stub's `times:` uses and does not advance a `.sequence`, so the client's retry
    /// gets what the stub would have answered the first time, as it would from a
    /// real server behind a failing network.
    ///
    /// The seed is `seed`, unless the environment variable `URLSTUBS_SEED` is set,
    /// which overrides it so that a failed run can be replayed; with neither, the
    /// enclosing scope's seed, else a random one. A scope has one seed, fixed by its
    /// first `injectFaults` or ``shuffleResponseOrder(_:spacing:positions:seed:fileID:filePath:line:column:)``
    /// call, and every failure message of the scope ends with it:
    /// `Faults seeded with 1234 (replay with URLSTUBS_SEED=1234).`
    ///
    /// Several calls may cover one request: the newest call of the nearest scope
    /// decides. Requests sent to the real network (``passThrough(_:times:fileID:filePath:line:column:)``,
    /// recording) are left alone, and so are requests no stub answers. A rate outside
    /// 0...1, no faults with a rate above 0, an impossible fault, or a negative
    /// latency is reported when the scope ends, at this call's line, and the call
    /// has no effect.
    ///
    /// - Parameters:
    ///   - pattern: Which requests to cover; every request by default.
    ///   - rate: The share of covered requests that fail, from 0 (none: only add
    ///     latency) to 1 (all).
    ///   - faults: What a failing request fails with, one drawn for each request;
    ///     by default ``StubFault/transient``: a timeout, a lost connection, `503`,
    ///     and `429` with `Retry-After: 1`.
    ///   - latency: How long every covered request waits before its answer, failed
    ///     or not, on top of the stub's own delay; none by default.
    ///   - seed: The seed of the scope's decisions; see above.
    ///   - fileID: The file of the call, for reports; leave it to its default.
    ///   - filePath: The path of that file, for reports; leave it to its default.
    ///   - line: The line of the call, for reports; leave it to its default.
    ///   - column: The column of the call, for reports; leave it to its default.
    nonisolated(nonsending) public func injectFaults(
        _ pattern: RequestPattern = .anyRequest,
        rate: Double,
        faults: [StubFault] = StubFault.transient,
        latency: StubLatency = .zero,
        seed: UInt64? = nil,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let rule = FaultRule(pattern: pattern, rate: rate, faults: faults, latency: latency, location: location)
        StubRegistry.shared.add(.faults(rule), seed: seed, to: self)
    }

    /// Adds `latency` to the requests that match `pattern` and that a stub of this
    /// scope (or of an enclosing or the global scope) answers, failing none: the
    /// same as `injectFaults(pattern, rate: 0, latency: latency, seed: seed)`.
    ///
    /// ```swift
    /// await scope.injectLatency(.uniform(.milliseconds(20) ... .milliseconds(200)))
    /// ```
    ///
    /// A drawn latency depends only on the seed and the request's identity, as
    /// ``injectFaults(_:rate:faults:latency:seed:fileID:filePath:line:column:)``
    /// describes; like it, the newest call of the nearest scope that covers a
    /// request decides, so a later `injectLatency` stops an earlier call's faults
    /// for the requests it covers. A negative latency is reported when the scope
    /// ends, at this call's line, and the call has no effect.
    nonisolated(nonsending) public func injectLatency(
        _ latency: StubLatency,
        for pattern: RequestPattern = .anyRequest,
        seed: UInt64? = nil,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let rule = FaultRule(pattern: pattern, rate: 0, faults: [], latency: latency, location: location)
        StubRegistry.shared.add(.faults(rule), seed: seed, to: self)
    }
}
