/// A clock whose time moves only when the test moves it, so that code which sleeps
/// (retries with backoff, polling, timeouts) is tested at once and exactly.
///
/// Give the code under test a clock (`some Clock<Duration>` or
/// `any Clock<Duration>`) instead of calling `Task.sleep`; in production pass a
/// `ContinuousClock`, in tests a `ManualClock`. Its time starts at
/// ``Instant/zero`` and stays there: a sleep suspends until the test calls
/// ``advance(by:)``, ``advance(to:)`` or ``run(maxWakeUps:)``, and the test waits
/// until the code has gone to sleep with ``waitForSleepers(atLeast:)``, without
/// ever waiting on the wall clock.
///
/// Testing a retry with backoff (two failures, then success, after 1 s and 2 s):
///
/// ```swift
/// func user(id: Int, client: UserClient, clock: some Clock<Duration>) async throws -> User {
///     var delay = Duration.seconds(1)
///     for _ in 1..<3 {
///         if let user = try? await client.user(id: id) { return user }
///         try await clock.sleep(for: delay)
///         delay *= 2
///     }
///     return try await client.user(id: id)
/// }
///
/// @Test func retriesAfterOneThenTwoSeconds() async throws {
///     let ada = User(id: 1, name: "Ada")
///     try await withStubScope { scope in
///         await scope.stub(.get("https://api.example.com/users/1"),
///                          with: .sequence([.status(503), .status(503), .json(ada)]))
///         let clock = ManualClock()
///         let task = Task { try await user(id: 1, client: UserClient(session: .stubbed), clock: clock) }
///
///         try await clock.waitForSleepers(atLeast: 1)  // failed once, sleeps 1 s
///         await clock.advance(by: .seconds(1))
///         try await clock.waitForSleepers(atLeast: 1)  // failed twice, sleeps 2 s
///         await clock.advance(by: .milliseconds(1_999))
///         #expect(clock.sleeperCount == 1)              // not a moment early
///         await clock.advance(by: .milliseconds(1))
///
///         #expect(try await task.value == ada)
///         #expect(clock.now == .zero.advanced(by: .seconds(3)))
///     }
/// }
/// ```
///
/// Between the steps the test waits for the code to sleep again
/// (``waitForSleepers(atLeast:)``) rather than relying on ``advance(by:)`` to
/// carry on through the next sleep: the next sleep comes after a request, which
/// takes real time, and an advance waits for a woken task only until its sleep
/// returns, then until it sleeps again for at most ``settlingYields`` yields (see
/// ``advance(to:)`` for exactly what it guarantees). A loop that goes straight
/// from sleep to sleep, with no other suspension in between, is normally followed
/// from sleep to sleep by a single advance or ``run(maxWakeUps:)``.
///
/// The clock is safe to share between tasks and between tests running in parallel;
/// each clock has its own time, sleepers and lock. Tolerances are ignored: a sleeper
/// wakes exactly at its deadline.
public final class ManualClock: Clock, Sendable {
    /// The type of the distance between two instants: `Swift.Duration`.
    public typealias Duration = Swift.Duration

    /// The time, the sleepers and the wake-up being handed off.
    let state = Locked(ManualClockState())

    /// How many times an advance yields, at most, after each wake-up, for the woken
    /// task to sleep again on this clock.
    ///
    /// It bounds step 2 of each of ``advance(to:)``'s steps: what a wake-up costs
    /// when the woken task finishes or awaits something else instead (all of the
    /// yields, a few milliseconds at the default), and how long a task that does
    /// sleep again may take to get there (usually not a single yield; the default
    /// leaves room for a thread the system preempts on a busy machine).
    public let settlingYields: Int

    /// Creates a clock at ``Instant/zero`` with no sleepers.
    ///
    /// - Parameter settlingYields: how many times an advance yields, at most, after
    ///   each wake-up for the woken task to sleep again on this clock before it
    ///   goes on (negative values count as zero); see ``advance(to:)``. Zero makes
    ///   wake-ups cheapest, and an advance then follows a task from sleep to sleep
    ///   only when it happens to be there already.
    public init(settlingYields: Int = 1_000) {
        self.settlingYields = max(0, settlingYields)
    }

    /// The clock's current time: ``Instant/zero`` plus every advance so far.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// The smallest step of the clock's time: zero, as it moves by exact amounts.
    public var minimumResolution: Duration {
        .zero
    }

    /// How many tasks are sleeping on the clock, waiting for an advance.
    ///
    /// A sleep counts from the moment it has suspended until it is woken (taken by
    /// an advance) or cancelled; a sleep whose deadline was already reached never
    /// counts. A stubbed request's timeout, watched while the request waits on
    /// something else (a computed answer's closure, a written stream's next
    /// piece), is not a sleeper either, though an advance past it times the
    /// request out: only the waits the request itself is in (a delay, a stream's
    /// interval, a stall, an answer that never comes) count, and an endless one (a
    /// stall or an answer that never comes, of a request whose `timeoutInterval`
    /// is zero or infinite) does not: no advance could end it.
    public var sleeperCount: Int {
        state.withLock { $0.countedSleepers }
    }

    /// Suspends the calling task until an advance moves the clock's time to
    /// `deadline` or past it.
    ///
    /// Like `ContinuousClock`'s sleep: a task already cancelled throws
    /// `CancellationError` at once; a deadline already reached returns at once,
    /// without suspending; a task cancelled while it sleeps throws
    /// `CancellationError` at once, and its sleep no longer counts in
    /// ``sleeperCount`` nor holds anything. A sleeper that an advance has already
    /// woken returns normally, even if its task is cancelled a moment later.
    ///
    /// - Parameters:
    ///   - deadline: the instant to wake at.
    ///   - tolerance: ignored: a sleeper wakes exactly at its deadline.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleep(until: deadline, isCounted: true)
    }

    /// Sleeps until `deadline`, as ``sleep(until:tolerance:)`` does; a sleep that
    /// is not counted is woken by advances but is left out of ``sleeperCount`` and
    /// ``waitForSleepers(atLeast:)``.
    func sleep(until deadline: Instant, isCounted: Bool) async throws {
        try Task.checkCancellation()
        let task = Self.currentTaskKey()
        let id = state.withLock { state -> UInt64? in
            deadline > state.now ? state.begin() : nil
        }
        guard let id else { return } // The deadline has been reached.
        let sleeper = ManualClockState.Sleeper(deadline: deadline, id: id, task: task, isCounted: isCounted)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: ManualClockState.Continuation) in
                switch state.withLock({ $0.suspend(sleeper, with: continuation) }) {
                case let .suspended(satisfied):
                    for waiter in satisfied {
                        waiter.resume()
                    }
                case .cancelled:
                    continuation.resume(throwing: CancellationError())
                case .reached:
                    continuation.resume()
                }
            }
        } onCancel: {
            state.withLock { $0.cancel(sleeper) }?.resume(throwing: CancellationError())
        }
        // Woken: tell the advance that woke this sleeper, if one did, that its task runs.
        state.withLock { $0.acknowledge(id) }?.resume()
    }

    /// Suspends the calling task until at least `count` tasks are sleeping on the
    /// clock.
    ///
    /// A test calls it before advancing, so that the code under test has gone to
    /// sleep first; it returns as soon as ``sleeperCount`` reaches `count` (at once
    /// when it has already, even in a cancelled task), with no polling. It counts
    /// sleepers, not sleeps begun since the call: after an advance has woken the one
    /// sleeper, `waitForSleepers(atLeast: 1)` waits for the next sleep.
    ///
    /// This wait has no bound: when the code under test might not sleep (it may
    /// finish, fail or await something else), use
    /// ``waitForSleepers(atLeast:timeout:)``, which fails saying what is sleeping
    /// instead of hanging the test.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before
    ///   enough sleepers come (the wait then ends at once and leaves nothing behind).
    nonisolated(nonsending) public func waitForSleepers(atLeast count: Int) async throws {
        let id = state.withLock { state -> UInt64? in
            state.countedSleepers >= count ? nil : state.begin()
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: ManualClockState.Continuation) in
                switch state.withLock({ $0.suspendWaiter(id, atLeast: count, with: continuation) }) {
                case .suspended:
                    break
                case .cancelled:
                    continuation.resume(throwing: CancellationError())
                case .satisfied:
                    continuation.resume()
                }
            }
        } onCancel: {
            state.withLock { $0.cancelWaiter(id) }?.resume(throwing: CancellationError())
        }
    }

    /// A key for the calling task, the same for as long as the task runs, used to
    /// tell when a woken task sleeps again.
    ///
    /// Two tasks alive at once never share a key (short of a 64-bit hash
    /// collision); a task that has ended may share it with a later one, which at
    /// worst ends an advance's wait for a woken task early.
    static func currentTaskKey() -> Int {
        withUnsafeCurrentTask { $0?.hashValue } ?? 0
    }
}
