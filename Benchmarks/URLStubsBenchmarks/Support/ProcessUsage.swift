#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A reading of what the whole process has consumed so far: CPU time on every
/// thread, and context switches of every thread.
///
/// Two readings around a batch give the batch's cost, whichever threads did the
/// work (the caller's task, Foundation's work queue, the cooperative pool), and
/// exclude what other processes on the machine did meanwhile.
struct ProcessUsage: Sendable {
    /// CPU time consumed by every thread of the process, in nanoseconds, from
    /// `clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`.
    var cpuNanoseconds: Double
    /// Voluntary plus involuntary context switches of every thread of the
    /// process, from `getrusage(RUSAGE_SELF)` (`ru_nvcsw + ru_nivcsw`).
    var contextSwitches: Double
    /// CPU time the process spent in user code, in microseconds, from
    /// `getrusage(RUSAGE_SELF)` (`ru_utime`).
    var userMicroseconds: Double
    /// CPU time the kernel spent on the process's behalf (system calls, waking and
    /// switching its threads), in microseconds, from `getrusage(RUSAGE_SELF)`
    /// (`ru_stime`).
    var kernelMicroseconds: Double

    /// The `who` argument of `getrusage` that asks for the whole process: an enum
    /// case in Glibc, an `Int32` macro in Darwin.
    private static var selfUsage: Int32 {
        #if canImport(Glibc)
        __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        RUSAGE_SELF
        #endif
    }

    /// The process's usage at this moment.
    static func now() -> ProcessUsage {
        var clock = timespec()
        _ = clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &clock)
        var usage = rusage()
        _ = getrusage(Self.selfUsage, &usage)
        return ProcessUsage(
            cpuNanoseconds: Double(clock.tv_sec) * 1e9 + Double(clock.tv_nsec),
            contextSwitches: Double(usage.ru_nvcsw) + Double(usage.ru_nivcsw),
            userMicroseconds: Self.microseconds(usage.ru_utime),
            kernelMicroseconds: Self.microseconds(usage.ru_stime)
        )
    }

    /// What the process consumed between `earlier` and this reading.
    func since(_ earlier: ProcessUsage) -> ProcessUsage {
        ProcessUsage(
            cpuNanoseconds: cpuNanoseconds - earlier.cpuNanoseconds,
            contextSwitches: contextSwitches - earlier.contextSwitches,
            userMicroseconds: userMicroseconds - earlier.userMicroseconds,
            kernelMicroseconds: kernelMicroseconds - earlier.kernelMicroseconds
        )
    }

    /// `time` in microseconds.
    private static func microseconds(_ time: timeval) -> Double {
        Double(time.tv_sec) * 1e6 + Double(time.tv_usec)
    }
}
