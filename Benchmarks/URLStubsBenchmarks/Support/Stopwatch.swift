import Dispatch

/// Monotonic timestamps in nanoseconds, cheap enough to read around a single call.
enum Stopwatch {
    /// Nanoseconds since an arbitrary fixed point, from the monotonic clock.
    @inline(__always)
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// Nanoseconds elapsed since `start`.
    @inline(__always)
    static func nanoseconds(since start: UInt64) -> Double {
        Double(now() &- start)
    }

    /// Microseconds elapsed since `start`.
    @inline(__always)
    static func microseconds(since start: UInt64) -> Double {
        Double(now() &- start) / 1_000
    }
}
