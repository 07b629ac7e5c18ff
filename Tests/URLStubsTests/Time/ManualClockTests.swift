import Foundation
import Testing
@testable import URLStubs

/// A clock the test moves: sleepers wake exactly at their deadline, in order, once;
/// cancelled ones are forgotten at once; and nothing waits on the wall clock.
@Suite("ManualClock: time the test moves", .timeLimit(.minutes(1)))
struct ManualClockTests {
    /// The instant `seconds` after the start of a manual clock.
    static func at(_ seconds: Int) -> ManualClock.Instant {
        .zero.advanced(by: .seconds(seconds))
    }

    /// Whether `clock` holds nothing of any sleep or wait: no sleeper, no wait for
    /// sleepers, no phase, no wake-up being handed off, no advance.
    static func holdsNothing(_ clock: ManualClock) -> Bool {
        clock.state.withLock { state in
            state.queue.isEmpty && state.waiters.isEmpty && state.phases.isEmpty
                && state.handoff == nil && !state.advancing && state.queuedAdvances.isEmpty
        }
    }

    // MARK: Instants

    @Test("an instant is an offset from zero: advanced(by:), duration(to:), comparison and description")
    func instants() {
        let three = ManualClock.Instant.zero.advanced(by: .seconds(3))
        #expect(three == ManualClock.Instant(offset: .seconds(3)))
        #expect(three.offset == .seconds(3))
        #expect(three.duration(to: .zero) == .seconds(-3))
        #expect(ManualClock.Instant.zero.duration(to: three) == .seconds(3))
        #expect(.zero < three)
        #expect(three - .milliseconds(500) == ManualClock.Instant(offset: .milliseconds(2_500)))
        #expect(three + .seconds(1) == ManualClock.Instant(offset: .seconds(4)))
        #expect(three - .zero == .seconds(3))
        #expect(three.description == "ManualClock.Instant(+3.0 seconds)")
        #expect(ManualClock.Instant(offset: .seconds(-1)).description == "ManualClock.Instant(-1.0 seconds)")
        let clock = ManualClock()
        #expect(clock.now == .zero)
        #expect(clock.minimumResolution == .zero)
        #expect(clock.sleeperCount == 0)
    }

    // MARK: Waking

    @Test("a sleeper wakes exactly at its deadline: advancing by 999 ms leaves it asleep, the last millisecond wakes it")
    func wakesExactlyAtItsDeadline() async throws {
        let clock = ManualClock()
        let sleeper = Task {
            try await clock.sleep(for: .seconds(1))
            return clock.now
        }
        try await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .milliseconds(999))
        #expect(clock.now == .zero.advanced(by: .milliseconds(999)))
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .milliseconds(1))
        #expect(clock.sleeperCount == 0)
        #expect(try await sleeper.value == Self.at(1))
        #expect(clock.now == Self.at(1))
        #expect(Self.holdsNothing(clock))
    }

    @Test("one advance wakes sleepers in deadline order, ties in the order they began sleeping, each with now at its deadline")
    func wakeUpOrder() async throws {
        // Each sleeper, once woken, logs its name and the time, then sleeps again (an
        // hour): the advance sees that sleep begin before it wakes the next sleeper,
        // so the log's order is the order of the wake-ups, however threads run.
        let clock = ManualClock(settlingYields: .max)
        let log = Locked<[String]>([])
        var tasks: [Task<Void, any Error>] = []
        for (name, seconds) in [("a", 3), ("b", 1), ("c", 2), ("d", 1), ("e", 3)] {
            tasks.append(Task {
                try await clock.sleep(until: Self.at(seconds))
                log.withLock { $0.append("\(name)@\(clock.now.offset)") }
                try await clock.sleep(for: .seconds(3_600))
            })
            try await clock.waitForSleepers(atLeast: tasks.count) // So that they begin in this order.
        }
        await clock.advance(by: .seconds(3))
        #expect(log.withLock { $0 } == ["b@1.0 seconds", "d@1.0 seconds", "c@2.0 seconds", "a@3.0 seconds", "e@3.0 seconds"])
        #expect(clock.sleeperCount == 5) // All five sleep their hour now.
        #expect(clock.now == Self.at(3))
        tasks.forEach { $0.cancel() }
        for task in tasks {
            await #expect(throws: CancellationError.self) { try await task.value }
        }
        #expect(Self.holdsNothing(clock))
    }

    @Test("advance(to:) wakes the sleepers due by that instant, leaves later ones asleep, and never moves back")
    func advanceTo() async throws {
        let clock = ManualClock()
        let tasks = [1, 2, 5].map { seconds in
            Task { try await clock.sleep(until: Self.at(seconds)) }
        }
        try await clock.waitForSleepers(atLeast: 3)
        await clock.advance(to: Self.at(2))
        #expect(clock.now == Self.at(2))
        #expect(clock.sleeperCount == 1)
        try await tasks[0].value
        try await tasks[1].value
        await clock.advance(to: Self.at(1)) // Earlier: nothing moves.
        #expect(clock.now == Self.at(2))
        #expect(clock.sleeperCount == 1)
        await clock.advance(to: Self.at(2)) // Now: nothing moves either.
        #expect(clock.sleeperCount == 1)
        await clock.advance(to: Self.at(5))
        try await tasks[2].value
        #expect(clock.now == Self.at(5))
        #expect(Self.holdsNothing(clock))
    }

    @Test("one advance through three deadlines wakes a loop sleeping 1 s three times, each sleep measured from the deadline it woke at")
    func advanceFollowsChainedSleeps() async throws {
        let clock = ManualClock(settlingYields: 10_000)
        let loop = Task {
            var woke: [ManualClock.Instant] = []
            for _ in 0..<4 {
                try await clock.sleep(for: .seconds(1))
                woke.append(clock.now)
            }
            return woke
        }
        try await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(3))
        #expect(clock.now == Self.at(3))
        #expect(clock.sleeperCount == 1) // The fourth sleep, until 4 s.
        await clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .milliseconds(1))
        #expect(try await loop.value == [Self.at(1), Self.at(2), Self.at(3), Self.at(4)])
        #expect(Self.holdsNothing(clock))
    }

    @Test("run() steps through chained sleeps: a loop sleeping 1 s three times ends at exactly 3 s")
    func runFollowsChainedSleeps() async throws {
        let clock = ManualClock(settlingYields: 10_000)
        let loop = Task {
            var woke: [ManualClock.Instant] = []
            for _ in 0..<3 {
                try await clock.sleep(for: .seconds(1))
                woke.append(clock.now)
            }
            return woke
        }
        try await clock.waitForSleepers(atLeast: 1)
        #expect(await clock.run())
        #expect(clock.now == Self.at(3))
        #expect(try await loop.value == [Self.at(1), Self.at(2), Self.at(3)])
        #expect(Self.holdsNothing(clock))
    }

    @Test("run(maxWakeUps:) stops an endless sleeping loop after that many wake-ups and reports sleepers left")
    func runIsBounded() async throws {
        let clock = ManualClock(settlingYields: .max) // The loop always sleeps again.
        let loop = Task {
            while true {
                try await clock.sleep(for: .seconds(1))
            }
        }
        try await clock.waitForSleepers(atLeast: 1)
        #expect(await clock.run(maxWakeUps: 5) == false)
        #expect(clock.now == Self.at(5))
        #expect(clock.sleeperCount == 1)
        #expect(await clock.run(maxWakeUps: 0) == false)
        #expect(clock.now == Self.at(5))
        loop.cancel()
        await #expect(throws: CancellationError.self) { try await loop.value }
        #expect(await clock.run())
        #expect(clock.now == Self.at(5))
        #expect(Self.holdsNothing(clock))
    }

    // MARK: Cancellation

    @Test("a sleeper cancelled while it sleeps is removed at once: the count drops to 0 and its task throws CancellationError")
    func cancellationRemovesTheSleeper() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(3_600)) }
        try await clock.waitForSleepers(atLeast: 1)
        sleeper.cancel() // The cancellation handler runs here, in this task.
        #expect(clock.sleeperCount == 0)
        #expect(Self.holdsNothing(clock))
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        await clock.advance(by: .seconds(3_600)) // Nothing left to wake.
        #expect(clock.now == Self.at(3_600))
        #expect(Self.holdsNothing(clock))
    }

    @Test("a task cancelled before it sleeps throws CancellationError at once, even for a deadline already reached, and leaves nothing")
    func cancelledBeforeSleeping() async {
        let clock = ManualClock()
        for deadline in [Self.at(60), ManualClock.Instant.zero] {
            let sleeper = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                try await clock.sleep(until: deadline)
            }
            await #expect(throws: CancellationError.self) { try await sleeper.value }
        }
        #expect(Self.holdsNothing(clock))
    }

    @Test("100 sleepers cancelled while an advance wakes others leave nothing behind, and the others wake once each")
    func cancellationRacingAnAdvance() async throws {
        let clock = ManualClock(settlingYields: 10) // The woken tasks end: keep their wake-ups cheap.
        let cancelled = (0..<100).map { _ in Task { try await clock.sleep(for: .seconds(2)) } }
        let woken = (0..<100).map { _ in Task { try await clock.sleep(for: .seconds(1)) } }
        try await clock.waitForSleepers(atLeast: 200)
        async let advance: Void = clock.advance(by: .seconds(1))
        cancelled.forEach { $0.cancel() }
        await advance
        for task in cancelled {
            await #expect(throws: CancellationError.self) { try await task.value }
        }
        for task in woken {
            try await task.value
        }
        #expect(clock.now == Self.at(1))
        #expect(Self.holdsNothing(clock))
    }

    // MARK: Zero and negative durations

    @Test("sleeping for zero or a negative duration, or until an instant reached, returns at once and never counts as a sleeper")
    func reachedDeadlinesReturnAtOnce() async throws {
        let clock = ManualClock()
        try await clock.sleep(for: .zero)
        try await clock.sleep(for: .seconds(-1))
        try await clock.sleep(until: .zero)
        await clock.advance(by: .seconds(2))
        try await clock.sleep(until: Self.at(1))
        try await clock.sleep(until: Self.at(2))
        #expect(clock.now == Self.at(2))
        #expect(Self.holdsNothing(clock))
    }

    @Test("advancing by zero or a negative duration moves nothing and wakes nobody")
    func zeroAndNegativeAdvances() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .nanoseconds(1)) }
        try await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .zero)
        await clock.advance(by: .seconds(-5))
        #expect(clock.now == .zero)
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .nanoseconds(1))
        try await sleeper.value
        #expect(clock.now == .zero.advanced(by: .nanoseconds(1)))
        await clock.advance(by: .seconds(-1))
        #expect(clock.now == .zero.advanced(by: .nanoseconds(1)))
    }

    // MARK: Waiting for sleepers

    @Test("waitForSleepers(atLeast:) returns once that many tasks sleep, at once when they already do")
    func waitingForSleepers() async throws {
        let clock = ManualClock()
        try await clock.waitForSleepers(atLeast: 0)
        let waiter = Task { try await clock.waitForSleepers(atLeast: 3) }
        var sleepers: [Task<Void, any Error>] = []
        for seconds in 1...3 {
            sleepers.append(Task { try await clock.sleep(for: .seconds(seconds)) })
        }
        try await waiter.value
        #expect(clock.sleeperCount == 3)
        try await clock.waitForSleepers(atLeast: 3)
        await clock.advance(by: .seconds(3))
        for sleeper in sleepers {
            try await sleeper.value
        }
        #expect(Self.holdsNothing(clock))
    }

    @Test("a cancelled waitForSleepers throws CancellationError at once and leaves nothing; one already satisfied returns even when cancelled")
    func cancellingAWaitForSleepers() async throws {
        let clock = ManualClock()
        let waiter = Task { try await clock.waitForSleepers(atLeast: 1) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(Self.holdsNothing(clock))

        let satisfied = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.waitForSleepers(atLeast: 0)
        }
        try await satisfied.value
    }

    @Test("after an advance wakes the one sleeper, waitForSleepers(atLeast: 1) waits for its next sleep")
    func waitingForTheNextSleep() async throws {
        let clock = ManualClock()
        let (step, steps) = AsyncStream.makeStream(of: Void.self)
        let loop = Task {
            for await _ in step { // Sleeps once for every step the test sends.
                try await clock.sleep(for: .seconds(1))
            }
        }
        for round in 1...3 {
            steps.yield()
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .seconds(1))
            #expect(clock.now == Self.at(round))
        }
        steps.finish()
        try await loop.value
        #expect(Self.holdsNothing(clock))
    }

    // MARK: Many tasks, many clocks

    @Test("64 parallel tasks sleeping different durations are each woken exactly once, at their deadline")
    func sixtyFourSleepers() async throws {
        let clock = ManualClock()
        let wakeUps = Locked([Int](repeating: 0, count: 64))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in (0..<64).shuffled() {
                group.addTask {
                    try await clock.sleep(until: .zero.advanced(by: .milliseconds(10 * (index + 1))))
                    wakeUps.withLock { $0[index] += 1 }
                }
            }
            try await clock.waitForSleepers(atLeast: 64)
            await clock.advance(by: .milliseconds(315)) // Wakes the first 31.
            #expect(clock.sleeperCount == 33)
            #expect(await clock.run())
            try await group.waitForAll()
        }
        #expect(wakeUps.withLock { $0 } == [Int](repeating: 1, count: 64))
        #expect(clock.now == .zero.advanced(by: .milliseconds(640)))
        #expect(Self.holdsNothing(clock))
    }

    @Test("concurrent advances are carried out one after the other, and time ends at the sum")
    func concurrentAdvances() async throws {
        let clock = ManualClock()
        let sleepers = (1...10).map { seconds in
            Task { try await clock.sleep(until: Self.at(seconds)) }
        }
        try await clock.waitForSleepers(atLeast: 10)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask { await clock.advance(by: .seconds(1)) }
            }
        }
        for sleeper in sleepers {
            try await sleeper.value
        }
        #expect(clock.now == Self.at(10))
        #expect(Self.holdsNothing(clock))
    }

    @Test("two clocks are independent: advancing one neither moves the other nor wakes its sleepers")
    func twoClocks() async throws {
        let first = ManualClock()
        let second = ManualClock()
        let onFirst = Task { try await first.sleep(for: .seconds(1)) }
        let onSecond = Task { try await second.sleep(for: .seconds(1)) }
        try await first.waitForSleepers(atLeast: 1)
        try await second.waitForSleepers(atLeast: 1)
        await first.advance(by: .seconds(10))
        try await onFirst.value
        #expect(first.now == Self.at(10))
        #expect(second.now == .zero)
        #expect(second.sleeperCount == 1)
        await second.advance(by: .seconds(1))
        try await onSecond.value
        #expect(first.now == Self.at(10))
        #expect(second.now == Self.at(1))
    }

    // MARK: The documented example

    /// The retry of the documentation: up to three attempts, 1 s then 2 s apart.
    static func user(id: Int, client: UserClient, clock: some Clock<Duration>) async throws -> UserClient.User {
        var delay = Duration.seconds(1)
        for _ in 1..<3 {
            if let user = try? await client.user(id: id) { return user }
            try await clock.sleep(for: delay)
            delay *= 2
        }
        return try await client.user(id: id)
    }

    @Test("the documented retry with backoff: two failures, then success after exactly 1 s and 2 s")
    func retryWithBackoff() async throws {
        let ada = UserClient.User(id: 1, name: "Ada")
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/users/1"), with: .sequence([.status(503), .status(503), .json(ada)]))
            let clock = ManualClock()
            let task = Task { try await Self.user(id: 1, client: UserClient(session: .stubbed), clock: clock) }

            try await clock.waitForSleepers(atLeast: 1) // Failed once, sleeps 1 s.
            await clock.advance(by: .seconds(1))
            try await clock.waitForSleepers(atLeast: 1) // Failed twice, sleeps 2 s.
            await clock.advance(by: .milliseconds(1_999))
            #expect(clock.sleeperCount == 1) // Not a moment early.
            await clock.advance(by: .milliseconds(1))

            #expect(try await task.value == ada)
            #expect(clock.now == Self.at(3))
            #expect(await scope.requests.count == 3)
        }
    }
}
