/// A known amount of CPU work done in user code alone: multiply-add steps whose
/// count per microsecond is measured once, by the thread's CPU clock.
///
/// The reference protocols spend their extra microseconds here rather than in a
/// loop that reads the clock, because reading a thread's CPU clock is a system call
/// on Linux: such a loop would spend its time in the kernel, while URLStubs' own
/// work per request runs in user code.
enum UserSpaceWork {
    /// Multiply-adds per microsecond on this machine: the median of seven timed runs,
    /// measured on first use.
    static let stepsPerMicrosecond: Int = calibrate()

    /// Does `microseconds` of work, starting from `seed`, and returns its result,
    /// which the caller keeps so that the work cannot be optimized away.
    static func perform(microseconds: Int, seed: UInt64) -> UInt64 {
        steps(microseconds * stepsPerMicrosecond, from: seed)
    }

    /// `count` steps of a linear congruential generator from `seed`. The compiler
    /// may fuse steps (it does: about 6,000 run per microsecond on machine B, more
    /// than one dependent multiply-add per cycle could), which is why the rate is
    /// measured on this very code rather than assumed.
    @inline(never)
    private static func steps(_ count: Int, from seed: UInt64) -> UInt64 {
        var state = seed
        for _ in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        }
        return state
    }

    /// Times seven runs of 200,000 steps and returns the median rate, per microsecond.
    private static func calibrate() -> Int {
        let count = 200_000
        var rates: [Double] = []
        for _ in 0..<7 {
            let start = ThreadCPUClock.nanoseconds()
            let result = steps(count, from: UInt64(bitPattern: start))
            let elapsed = ThreadCPUClock.nanoseconds() - start
            // Compared with the clock, which it all but never equals, so that the
            // timed steps must be done.
            guard result != UInt64(bitPattern: elapsed) else { continue }
            rates.append(Double(count) / (Double(max(elapsed, 1)) / 1_000))
        }
        guard !rates.isEmpty else { return 1 }
        return max(1, Int(rates.sorted()[rates.count / 2].rounded()))
    }
}
