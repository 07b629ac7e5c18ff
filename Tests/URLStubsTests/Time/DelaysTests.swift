import Foundation
import Testing
@testable import URLStubs

/// The waits behind delayed answers and request-wait timeouts: a cancelled wait
/// must end at once and let go of what it holds, not keep it until its deadline (a
/// cancelled `Task.sleep` on Linux keeps about 740 bytes until then, which is why
/// the waits do not use it).
@Suite("Delays: waiting out a delay, and cancelling it", .timeLimit(.minutes(1)))
struct DelaysTests {
    @Test("a wait cancelled while it is armed ends at once with false and leaves nothing armed, long before its hour-long deadline")
    func cancelledWaitLeavesNothingArmed() async {
        let delays = Delays() // Its own, so that no other test's waits are counted.
        let task = Task { await delays.wait(.seconds(3_600)) }
        while delays.armedCount == 0, !Task.isCancelled {
            await Task.yield()
        }
        task.cancel()
        #expect(await task.value == false)
        #expect(delays.armedCount == 0)
    }

    @Test("a wait in a task cancelled before it began returns false at once and arms nothing")
    func waitInACancelledTask() async {
        let delays = Delays()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await delays.wait(.seconds(3_600))
        }
        #expect(await task.value == false)
        #expect(delays.armedCount == 0)
        #expect(delays.deadlineCount == 0)
    }

    @Test("3,000 cancelled hour-long waits leave at most 1,024 stale deadlines (16 bytes each) and nothing armed")
    func cancelsLeaveNextToNothing() async {
        let delays = Delays()
        for _ in 0..<30 {
            let tasks = (0..<100).map { _ in Task { await delays.wait(.seconds(3_600)) } }
            while delays.armedCount < 100, !Task.isCancelled {
                await Task.yield()
            }
            tasks.forEach { $0.cancel() }
            for task in tasks {
                #expect(await task.value == false)
            }
        }
        #expect(delays.armedCount == 0)
        #expect(delays.deadlineCount <= 1_024)
    }

    @Test("a short wait started after an hour-long one ends at its own deadline, with true, while the long one stays armed")
    func earlierDeadlineRearmsTheTimer() async {
        let delays = Delays()
        let long = Task { await delays.wait(.seconds(3_600)) }
        while delays.armedCount == 0, !Task.isCancelled {
            await Task.yield()
        }
        let start = ContinuousClock.now
        #expect(await delays.wait(.milliseconds(20)))
        #expect(ContinuousClock.now - start >= .milliseconds(20))
        #expect(delays.armedCount == 1)
        long.cancel()
        #expect(await long.value == false)
    }

    @Test("sleepUnlessCancelled: a zero wait returns at once, and a never-ending one (.seconds(.max)) still ends when cancelled")
    func zeroAndForever() async {
        #expect(await sleepUnlessCancelled(for: .zero))
        #expect(await sleepUnlessCancelled(for: .milliseconds(1)))
        let forever = Task { await sleepUnlessCancelled(for: .seconds(Int64.max)) }
        forever.cancel()
        #expect(await forever.value == false)
    }
}
