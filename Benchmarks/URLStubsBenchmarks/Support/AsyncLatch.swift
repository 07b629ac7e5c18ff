/// A countdown that tasks await until a given number of arrivals has happened.
///
/// Used as a start gate (count 1) and to wait until many tasks are ready. An actor,
/// so it needs no lock; it is never used inside a timed region.
actor AsyncLatch {
    /// Arrivals still needed before waiters are released.
    private var remaining: Int
    /// Tasks suspended in ``wait()``.
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Creates a latch that opens after `count` arrivals.
    init(count: Int) {
        remaining = count
    }

    /// Counts one arrival; the last one releases every waiter.
    func arrive() {
        remaining -= 1
        guard remaining == 0 else { return }
        let released = waiters
        waiters = []
        for waiter in released {
            waiter.resume()
        }
    }

    /// Returns once the latch has opened (at once if it already has).
    func wait() async {
        guard remaining > 0 else { return }
        await withCheckedContinuation { continuation in
            waiters.append(continuation)
        }
    }
}
