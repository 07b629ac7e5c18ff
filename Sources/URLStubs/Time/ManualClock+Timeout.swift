extension ManualClock {
    /// The error of a wait for sleepers that did not get enough of them in time:
    /// the code under test did not go to sleep as the test expected (it finished,
    /// failed, awaits something else, or sleeps on another clock).
    public struct SleepersTimeout: Error, Sendable, CustomStringConvertible {
        /// How many sleepers the wait needed.
        public let expected: Int
        /// The deadlines of the tasks sleeping on the clock when the wait gave up,
        /// earliest first: fewer than ``expected``.
        public let sleeping: [Instant]
        /// The clock's time when the wait gave up.
        public let now: Instant
        /// How long the wait lasted, in real time.
        public let timeout: Duration

        /// What was expected, and what was sleeping instead.
        public var description: String {
            TimeMessages.sleepersTimedOut(expected: expected, sleeping: sleeping, now: now, timeout: timeout)
        }
    }

    /// Suspends the calling task until at least `count` tasks are sleeping on the
    /// clock, as ``waitForSleepers(atLeast:)`` does, or until `timeout` has passed
    /// in real time, whichever comes first.
    ///
    /// A test that expects the code under test to go to sleep calls it instead of
    /// the wait without a timeout, so that code which never sleeps (it finished,
    /// failed, or awaits something else) fails the test with what *is* sleeping
    /// instead of hanging it. The timeout is the only wall-clock wait of the clock;
    /// it never moves the clock's time.
    ///
    /// - Throws: ``SleepersTimeout`` when `timeout` passes first and fewer than
    ///   `count` tasks sleep then, naming the deadlines still sleeping;
    ///   `CancellationError` when the calling task is cancelled first.
    nonisolated(nonsending) public func waitForSleepers(atLeast count: Int, timeout: Duration) async throws {
        if state.withLock({ $0.countedSleepers >= count }) {
            return
        }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await self.waitForSleepers(atLeast: count)
                return true
            }
            group.addTask {
                _ = await sleepUnlessCancelled(for: timeout)
                return false
            }
            defer { group.cancelAll() }
            guard let enough = try await group.next() else { return }
            if enough { return }
            // The timeout came first, but the sleepers may have come while its task
            // was being resumed: the wait is met if its own task was satisfied, or
            // if the count is reached when it looks.
            group.cancelAll()
            if (try? await group.next()) == true { return }
            let (met, sleeping, now) = state.withLock { state in
                (state.countedSleepers >= count, state.queue.filter(\.isCounted).map(\.deadline).reversed() as [Instant], state.now)
            }
            if met { return }
            try Task.checkCancellation()
            throw SleepersTimeout(expected: count, sleeping: sleeping, now: now, timeout: timeout)
        }
    }
}
