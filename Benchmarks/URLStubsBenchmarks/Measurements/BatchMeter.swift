/// Readings taken when a batch starts, turned into a ``BatchSample`` when it ends.
struct BatchMeter: Sendable {
    /// The process's usage when the batch started.
    private let usage: ProcessUsage
    /// When the batch started, on ``Stopwatch``'s clock.
    let startTime: UInt64

    /// Starts measuring a batch now.
    init() {
        usage = ProcessUsage.now()
        startTime = Stopwatch.now()
    }

    /// Ends the batch now and returns what it measured.
    ///
    /// - Parameters:
    ///   - requests: How many requests the batch made.
    ///   - requestMicroseconds: The wall time of each of its requests.
    ///   - unexpected: How many of them did not end as expected.
    ///   - end: When the batch's work ended, if it is known more precisely than
    ///     now (the last response of concurrent tasks).
    func stop(requests: Int, requestMicroseconds: [Double], unexpected: Int, end: UInt64? = nil) -> BatchSample {
        let now = Stopwatch.now()
        let used = ProcessUsage.now().since(usage)
        let finish = min(end ?? now, now)
        return BatchSample(
            requests: requests,
            wallMicroseconds: Double(finish &- startTime) / 1_000,
            cpuMicroseconds: used.cpuNanoseconds / 1_000,
            contextSwitches: used.contextSwitches,
            userAndKernelMicroseconds: (used.userMicroseconds, used.kernelMicroseconds),
            requestMicroseconds: requestMicroseconds,
            unexpected: unexpected
        )
    }
}
