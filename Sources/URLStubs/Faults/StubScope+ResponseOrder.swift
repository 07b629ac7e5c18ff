/// Shaking the order in which answers to concurrent requests arrive.
extension StubScope {
    /// Holds back the answer to each request that matches `pattern` by a seeded
    /// number of `spacing` steps, so that answers to requests made together arrive
    /// in a seeded order rather than the order they were asked in: code that
    /// assumes the first answer belongs to the first request fails for some seeds.
    ///
    /// ```swift
    /// await scope.shuffleResponseOrder(seed: 7)
    /// async let user = client.user(id: 1)
    /// async let orders = client.orders(of: 1)   // may now arrive first
    /// ```
    ///
    /// Each covered request is given a position from `0` to `positions - 1`, drawn
    /// from the seed and the request's identity (method, URL, and how many identical
    /// requests the scope received before it) exactly as
    /// ``injectFaults(_:rate:faults:latency:seed:fileID:filePath:line:column:)``
    /// draws its decisions, and its answer is held for `position × spacing` on top
    /// of its other delays. What is guaranteed:
    /// - the same seed gives every request the same position, however requests
    ///   interleave;
    /// - among requests whose answers have no other delay (or the same one), the
    ///   answers to requests that arrive less than `spacing` apart are released in
    ///   the order of their positions, whatever order the requests arrived in
    ///   (requests that arrive together are released `spacing` apart or more);
    /// - requests given the same position (one chance in `positions` for any two)
    ///   are released in the order they arrived, which a seed does not fix.
    ///
    /// Release is when the answer is handed to Foundation; the client sees the
    /// answers in that order as long as delivering one takes less than `spacing`, so
    /// keep it well above the machine's scheduling noise (the default is 10 ms; on a
    /// busy CI machine, more). Requests sent to the real network and requests no stub
    /// answers are left alone; failed-by-fault answers are held like any other.
    ///
    /// The scope has one seed, shared with its faults: see `injectFaults` for where
    /// it comes from and how `URLSTUBS_SEED` replays it. A spacing that is not more
    /// than zero (or longer than a day) or fewer than 2 positions (or more than
    /// 1,000) is reported when the scope ends, at this call's line, and the call has
    /// no effect.
    ///
    /// - Parameters:
    ///   - pattern: Which requests to cover; every request by default.
    ///   - spacing: The time between two consecutive positions.
    ///   - positions: How many positions there are; the longest hold is
    ///     `(positions - 1) × spacing`.
    ///   - seed: The seed of the scope's decisions.
    ///   - fileID: The file of the call, for reports; leave it to its default.
    ///   - filePath: The path of that file, for reports; leave it to its default.
    ///   - line: The line of the call, for reports; leave it to its default.
    ///   - column: The column of the call, for reports; leave it to its default.
    nonisolated(nonsending) public func shuffleResponseOrder(
        _ pattern: RequestPattern = .anyRequest,
        spacing: Duration = .milliseconds(10),
        positions: Int = 8,
        seed: UInt64? = nil,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let rule = ResponseOrderRule(pattern: pattern, spacing: spacing, positions: positions, location: location)
        StubRegistry.shared.add(.order(rule), seed: seed, to: self)
    }
}
