import Foundation
import Testing
@testable import URLStubs

/// The waits behind delayed answers and request-wait timeouts: a cancelled wait
/// must end at once and let go of everything it holds, not keep it until its
/// deadline (a cancelled `Task.sleep` on Linux keeps about 740 bytes until then,
/// which is why the waits do not use it).
@Suite("Delay timers: waiting out a delay, and cancelling it", .timeLimit(.minutes(1)))
struct DelayTimerTests {
    @Test("a wait cancelled while its timer is armed ends at once with false, and its timer is let go long before its hour-long deadline")
    func cancelledWaitLetsGoOfItsTimer() async {
        var timer: DelayTimer? = DelayTimer()
        weak let released = timer
        let task = Task { [timer] in await timer!.wait(.seconds(3_600)) }
        while timer?.isWaiting == false, !Task.isCancelled {
            await Task.yield()
        }
        task.cancel()
        #expect(await task.value == false)
        #expect(timer?.isWaiting == false)
        timer = nil
        // Dispatch releases a cancelled timer's handler (which holds the wait) on its
        // own queue, just after the cancel: only the test's time limit bounds this.
        while released != nil, !Task.isCancelled {
            await Task.yield()
        }
        #expect(released == nil)
    }

    @Test("a wait in a task cancelled before it began returns false at once, arms nothing, and is let go")
    func waitInACancelledTask() async {
        var timer: DelayTimer? = DelayTimer()
        weak let released = timer
        let task = Task { [timer] in
            withUnsafeCurrentTask { $0?.cancel() }
            return await timer!.wait(.seconds(3_600))
        }
        #expect(await task.value == false)
        #expect(timer?.isWaiting == false)
        timer = nil
        while released != nil, !Task.isCancelled {
            await Task.yield()
        }
        #expect(released == nil)
    }

    @Test("a wait that is not cancelled ends at its deadline with true; a never-ending one (.seconds(.max)) still ends when cancelled")
    func deadlinesAndForever() async {
        #expect(await sleepUnlessCancelled(for: .milliseconds(5)))
        #expect(await sleepUnlessCancelled(for: .zero))
        let forever = Task { await sleepUnlessCancelled(for: .seconds(Int64.max)) }
        forever.cancel()
        #expect(await forever.value == false)
    }
}
