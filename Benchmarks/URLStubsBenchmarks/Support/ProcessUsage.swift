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
            contextSwitches: Double(usage.ru_nvcsw) + Double(usage.ru_nivcsw)
        )
    }

    /// What the process consumed between `earlier` and this reading.
    func since(_ earlier: ProcessUsage) -> ProcessUsage {
        ProcessUsage(
            cpuNanoseconds: cpuNanoseconds - earlier.cpuNanoseconds,
            contextSwitches: contextSwitches - earlier.contextSwitches
        )
    }
}
