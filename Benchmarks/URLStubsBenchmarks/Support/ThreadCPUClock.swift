#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The calling thread's own CPU time: what work on one thread costs, whatever the
/// process's other threads do meanwhile.
enum ThreadCPUClock {
    /// The calling thread's CPU time so far, in nanoseconds.
    static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
