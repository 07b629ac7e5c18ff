#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// A test of time cannot hang on the manual clock: a wait for sleepers can be
/// bounded, and then fails saying what is sleeping; the guarantees of `advance`
/// and `run` hold over many repetitions, on a busy machine too.
@Suite("ManualClock: waits that cannot hang", .timeLimit(.minutes(1)))
struct ManualClockHangTests {
    @Test("a bounded wait for sleepers returns as soon as enough tasks sleep, and leaves nothing behind")
    func boundedWaitReturns() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        try await clock.waitForSleepers(atLeast: 1, timeout: .patience)
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .seconds(5))
        try await sleeper.value
        #expect(ManualClockTests.holdsNothing(clock))
    }

    @Test("a bounded wait that does not get enough sleepers fails after its timeout, naming what is sleeping, without moving the clock")
    func boundedWaitTimesOut() async throws {
        let clock = ManualClock()
        await clock.advance(by: .seconds(1))
        let first = Task { try await clock.sleep(for: .seconds(5)) }
        let second = Task { try await clock.sleep(for: .milliseconds(1_500)) }
        try await clock.waitForSleepers(atLeast: 2)
        let error = await #expect(throws: ManualClock.SleepersTimeout.self) {
            try await clock.waitForSleepers(atLeast: 3, timeout: .milliseconds(50))
        }
        #expect(error?.expected == 3)
        #expect(error?.sleeping == [.zero.advanced(by: .milliseconds(2_500)), .zero.advanced(by: .seconds(6))])
        #expect(error?.now == .zero.advanced(by: .seconds(1)))
        #expect(error?.description == "ManualClock: waited 0.05 seconds for 3 tasks to sleep on the clock (now at 1.0 seconds), but only 2 tasks are sleeping on it, until 2.5 seconds, 6.0 seconds. The code under test finished, failed, awaits something other than this clock (a request, another task), or sleeps on another clock.")
        #expect(clock.now == .zero.advanced(by: .seconds(1)))
        first.cancel()
        second.cancel()
        _ = await (first.result, second.result)
        #expect(ManualClockTests.holdsNothing(clock))
    }

    @Test("a bounded wait with nothing sleeping says so; a request's watched timeout is not counted as sleeping")
    func boundedWaitWithNoSleeper() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            let url = URL(string: "https://api.example.com/computed")!
            await scope.stub(.get(url)) { _ in
                await Latch().wait() // Only a cancel ends it; the request's timeout is watched meanwhile.
                return .text("never")
            }
            let loading = Task { try await URLSession.stubbed.data(from: url) }
            _ = try await scope.waitForRequest(timeout: .patience)
            let error = await #expect(throws: ManualClock.SleepersTimeout.self) {
                try await clock.waitForSleepers(atLeast: 1, timeout: .milliseconds(50))
            }
            #expect(error?.sleeping == [])
            #expect(error?.description.contains("but no task is sleeping on it.") == true)
            loading.cancel()
            _ = await loading.result
        }
    }

    @Test("a bounded wait in a cancelled task throws CancellationError and leaves nothing behind")
    func boundedWaitCancelled() async throws {
        let clock = ManualClock()
        let waiting = Task { try await clock.waitForSleepers(atLeast: 1, timeout: .patience) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(ManualClockTests.holdsNothing(clock))
    }

    @Test("100 times over: run(), with a bounded wait for a sleep that begins after it returned, drives a sleep loop to its end at the exact instant, and never hangs")
    func runFollowsALoopEveryTime() async throws {
        for _ in 0..<100 {
            let clock = ManualClock()
            let done = Shared(false)
            let ended = Latch()
            let loop = Task {
                defer { ended.open() }
                for _ in 0..<5 {
                    try await clock.sleep(for: .seconds(1))
                }
                done.value = true
                return clock.now
            }
            try await clock.waitForSleepers(atLeast: 1, timeout: .patience)
            // run() may return before the woken loop sleeps again (a busy machine can
            // preempt it on its way): wait for that sleep, bounded, or for the loop's
            // end, whichever comes, and run again after a sleep.
            while true {
                await clock.run()
                if done.value { break }
                let sleepsAgain = try await withThrowingTaskGroup(of: Bool.self) { group in
                    group.addTask {
                        try await clock.waitForSleepers(atLeast: 1, timeout: .patience)
                        return true
                    }
                    group.addTask {
                        // A latch, not `loop.result`: awaiting a task's result ignores
                        // cancellation, so when the sleep came first the group would
                        // wait for a loop that sleeps until the next run (it hung
                        // about one run in five, three suites at a time on 2 cores).
                        await ended.wait()
                        return false
                    }
                    defer { group.cancelAll() }
                    return try await group.next() ?? false
                }
                if !sleepsAgain { break }
            }
            #expect(try await loop.value == .zero.advanced(by: .seconds(5)))
            #expect(ManualClockTests.holdsNothing(clock))
        }
    }

    @Test("50 times over: a stream played on the manual clock with a bounded wait before each advance arrives whole, at exact instants, and never hangs")
    func streamStepsEveryTime() async throws {
        let url = URL(string: "https://api.example.com/ticks")!
        for _ in 0..<50 {
            let clock = ManualClock()
            let reader = ChunkReader()
            defer { reader.close() }
            try await withStubScope(clock: clock) { scope in
                await scope.stub(.get(url), with: .chunks(["a", "b", "c"].map { Data($0.utf8) }, every: .seconds(1)))
                let task = reader.session.dataTask(with: URLRequest(url: url))
                async let reading = reader.read(task)
                for _ in 0..<2 {
                    try await clock.waitForSleepers(atLeast: 1, timeout: .patience)
                    await clock.advance(by: .seconds(1))
                }
                let final = await reading
                #expect(final.texts == ["a", "b", "c"])
                #expect(await scope.exchanges.first?.endedAt == .seconds(2))
            }
        }
    }
}
