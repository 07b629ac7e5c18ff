/// What one timed batch measured: its wall time, the process's CPU time (and how
/// getrusage splits it) and context switches over it, and the wall time of each
/// request in it.
///
/// A batch is the unit the paired comparisons alternate: its per-request figures
/// are the batch's totals divided by its number of requests.
struct BatchSample: Sendable {
    /// How many requests the batch made.
    var requests: Int
    /// Wall time from the batch's first request to its last response, in microseconds.
    var wallMicroseconds: Double
    /// CPU time the whole process consumed over the batch, in microseconds.
    var cpuMicroseconds: Double
    /// Context switches of every thread of the process over the batch.
    var contextSwitches: Double
    /// The process's CPU time over the batch as getrusage splits it: in user code,
    /// and in the kernel on its behalf, in microseconds. On Linux the split comes
    /// from sampling at the scheduler's tick, too coarse for one batch: see
    /// ``kernelShare(of:)``.
    var userAndKernelMicroseconds: (user: Double, kernel: Double)
    /// The wall time of each request, in microseconds (its latency).
    var requestMicroseconds: [Double]
    /// Requests that did not end as expected (a wrong body, an error).
    var unexpected: Int

    /// Wall time per request: the batch's wall time divided by its requests.
    var wallPerRequest: Double {
        wallMicroseconds / Double(max(requests, 1))
    }

    /// CPU time per request, in microseconds.
    var cpuPerRequest: Double {
        cpuMicroseconds / Double(max(requests, 1))
    }

    /// Context switches per request.
    var contextSwitchesPerRequest: Double {
        contextSwitches / Double(max(requests, 1))
    }

    /// Requests per second over the batch.
    var requestsPerSecond: Double {
        wallMicroseconds > 0 ? Double(requests) / wallMicroseconds * 1e6 : 0
    }

    /// The kernel's share of the CPU time of `samples` together, in percent; `nil`
    /// when getrusage counted none. Pooled over the batches rather than a median of
    /// each batch's share: a batch lasts a few of the scheduler's ticks, by which
    /// getrusage splits a process's time between user code and the kernel on Linux.
    static func kernelShare(of samples: [BatchSample]) -> Double? {
        let user = samples.reduce(0) { $0 + $1.userAndKernelMicroseconds.user }
        let kernel = samples.reduce(0) { $0 + $1.userAndKernelMicroseconds.kernel }
        return user + kernel > 0 ? kernel / (user + kernel) * 100 : nil
    }
}
