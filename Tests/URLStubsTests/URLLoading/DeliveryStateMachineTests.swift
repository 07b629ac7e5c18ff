#if canImport(FoundationNetworking)
import FoundationNetworking
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

/// The guards of the delivery state machine (`Delivery`), each pinned by a test in
/// which a cancel or a suspend, not the scope's end, is what meets the answer.
///
/// Every test drives one protocol call by call (see ``ProtocolHarness``), holds
/// gates instead of sleeping, and compares the whole log of protocol calls and
/// client calls, so a client call after `stopLoading()`, or a second outcome,
/// shows up as a line that should not be there.
@Suite("The delivery state machine, call by call", .timeLimit(.minutes(1)))
struct DeliveryStateMachineTests {
    static let url = "https://api.example.com/answer"

    /// Registers a computed stub for ``url`` that answers `ready` once `gate` opens.
    private func stubGated(_ scope: StubScope, by gate: Latch) async {
        await scope.stub(.get(Self.url)) { _ in
            await gate.wait()
            return .text("ready")
        }
    }

    // MARK: Suspends

    @Test("a suspend that lands after the answer was scheduled on the client thread, before the thread took it, holds the answer until loading starts again")
    func suspendBetweenSchedulingAndDelivery() async throws {
        let harness = ProtocolHarness(.runLoop)
        defer { harness.close() }
        try await withStubScope { scope in
            let answerMayGo = Latch()
            await stubGated(scope, by: answerMayGo)
            let load = harness.makeLoad(Self.url)
            await harness.start(load)
            let hold = await harness.hold(load)
            answerMayGo.open()
            await load.producingTaskEnded.wait() // The answer is now scheduled on the held thread.
            await hold.release { ProtocolHarness.stopNow(load, .suspend) }
            await harness.flush(load) // The scheduled delivery has run, after the suspend.
            #expect(load.log.all == ["startLoading", "stopLoading (suspend)"])
            await harness.restart(load)
            #expect(load.log.all == ["startLoading", "stopLoading (suspend)", "startLoading", "response 200", "data \"ready\"", "finish"])
        }
    }

    @Test("an answer that becomes ready while the task is suspended reaches the client only when loading starts again, once", arguments: [ProtocolHarness.Mode.runLoop, .workQueue])
    func answerReadyWhileSuspended(mode: ProtocolHarness.Mode) async throws {
        let harness = ProtocolHarness(mode)
        defer { harness.close() }
        try await withStubScope { scope in
            let answerMayGo = Latch()
            await stubGated(scope, by: answerMayGo)
            let load = harness.makeLoad(Self.url)
            await harness.start(load)
            await harness.stop(load, .suspend)
            answerMayGo.open()
            await load.producingTaskEnded.wait()
            await harness.flush(load)
            #expect(load.log.all == ["startLoading", "stopLoading (suspend)"])
            await harness.restart(load)
            await harness.restart(load)
            #expect(load.log.all == ["startLoading", "stopLoading (suspend)", "startLoading", "response 200", "data \"ready\"", "finish", "startLoading"])
            #expect(inFlightCount(in: scope) == 0)
        }
    }

    // MARK: One outcome

    @Test("an answer delivered on the client thread is delivered once: a later startLoading() adds nothing")
    func runLoopDeliveryHappensOnce() async throws {
        let harness = ProtocolHarness(.runLoop)
        defer { harness.close() }
        try await withStubScope { scope in
            let answerMayGo = Latch()
            await stubGated(scope, by: answerMayGo)
            let load = harness.makeLoad(Self.url)
            await harness.start(load)
            answerMayGo.open()
            await load.log.outcome.wait()
            await harness.restart(load)
            #expect(load.log.all == ["startLoading", "response 200", "data \"ready\"", "finish", "startLoading"])
        }
    }

    @Test("on a work queue, a late answer is made on the task's work queue as soon as it is ready, once: a later startLoading() adds nothing")
    func workQueueDeliveryHappensOnce() async throws {
        let harness = ProtocolHarness(.workQueue)
        defer { harness.close() }
        try await withStubScope { scope in
            let answerMayGo = Latch()
            await stubGated(scope, by: answerMayGo)
            let load = harness.makeLoad(Self.url)
            await harness.start(load)
            answerMayGo.open()
            await load.log.outcome.wait()
            await harness.restart(load)
            #expect(load.log.all == ["startLoading", "response 200", "data \"ready\"", "finish", "startLoading"])
        }
    }

    @Test("an answer ready before its scope ended is delivered when loading starts after the end, not replaced by the scope's failure, and the scope ends with no warning", arguments: [ProtocolHarness.Mode.runLoop, .workQueue])
    func readyAnswerOutlivesTheScope(mode: ProtocolHarness.Mode) async throws {
        let harness = ProtocolHarness(mode)
        defer { harness.close() }
        let outcome = await StubScope.withNewScope(name: nil, location: here()) { scope in
            let answerMayGo = Latch()
            await stubGated(scope, by: answerMayGo)
            let load = harness.makeLoad(Self.url)
            await harness.start(load)
            await harness.stop(load, .suspend)
            answerMayGo.open()
            await load.producingTaskEnded.wait()
            return load
        }
        let load = try outcome.result.get()
        await harness.restart(load)
        #expect(load.log.all == ["startLoading", "stopLoading (suspend)", "startLoading", "response 200", "data \"ready\"", "finish"])
        #expect(outcome.problems.map(\.message) == [])
    }

    @Test("an answer ready before its scope ended, still waiting for the held client thread, settles the request: the scope ends with no warning and the answer is delivered once the thread runs")
    func answerReadyWhenTheScopeEndsOnAHeldThread() async throws {
        let harness = ProtocolHarness(.runLoop)
        defer { harness.close() }
        let hold = Shared<ProtocolHarness.Hold?>(nil)
        let outcome = await StubScope.withNewScope(name: nil, location: here()) { scope in
            let answerMayGo = Latch()
            await stubGated(scope, by: answerMayGo)
            let load = harness.makeLoad(Self.url)
            await harness.start(load)
            hold.value = await harness.hold(load)
            answerMayGo.open()
            await load.producingTaskEnded.wait() // Produced, and scheduled on the held thread.
            #expect(inFlightCount(in: scope) == 0)
            return load
        }
        await hold.value?.release()
        let load = try outcome.result.get()
        await harness.flush(load)
        #expect(load.log.all == ["startLoading", "response 200", "data \"ready\"", "finish"])
        #expect(outcome.problems.map(\.message) == [])
    }

    // MARK: Cancels

    @Test("a cancel ends a long delay: its task ends at once, nothing reaches the client, even if loading starts again, and the scope ends with no problem")
    func cancelEndsALongDelay() async throws {
        let harness = ProtocolHarness(.runLoop)
        defer { harness.close() }
        let outcome = await StubScope.withNewScope(name: nil, location: here()) { scope in
            await scope.stub(.get(Self.url), with: .text("late").delayed(by: .seconds(3_600)))
            let load = harness.makeLoad(Self.url)
            await harness.start(load)
            #expect(inFlightCount(in: scope) == 1)
            await harness.stop(load, .cancel)
            await load.producingTaskEnded.wait() // Only the cancel can end an hour's delay in time.
            #expect(inFlightCount(in: scope) == 0)
            await harness.restart(load)
            await harness.flush(load)
            return load.log.all
        }
        #expect(try outcome.result.get() == ["startLoading", "stopLoading (cancel)", "startLoading"])
        #expect(outcome.problems.isEmpty)
    }

    @Test("a cancel after the answer became ready, before the client thread took it, drops it: nothing reaches the client, even when loading starts again", arguments: [ProtocolHarness.Mode.runLoop, .workQueue])
    func cancelDropsAReadyAnswer(mode: ProtocolHarness.Mode) async throws {
        let harness = ProtocolHarness(mode)
        defer { harness.close() }
        let outcome = await StubScope.withNewScope(name: nil, location: here()) { scope in
            let answerMayGo = Latch()
            await stubGated(scope, by: answerMayGo)
            let load = harness.makeLoad(Self.url)
            await harness.start(load)
            let hold = await harness.hold(load)
            answerMayGo.open()
            await load.producingTaskEnded.wait() // Scheduled behind the hold.
            await hold.release { ProtocolHarness.stopNow(load, .cancel) }
            await harness.flush(load)
            #expect(inFlightCount(in: scope) == 0)
            await harness.restart(load)
            return load.log.all
        }
        #expect(try outcome.result.get() == ["startLoading", "stopLoading (cancel)", "startLoading"])
        #expect(outcome.problems.isEmpty)
    }

    @Test("a cancel that comes before startLoading() leaves nothing to answer: no stub is asked and nothing reaches the client")
    func cancelBeforeStart() async throws {
        let harness = ProtocolHarness(.runLoop)
        defer { harness.close() }
        try await withStubScope { scope in
            let stub = await scope.stub(.get(Self.url), with: .text("fixed"))
            let load = harness.makeLoad(Self.url)
            await harness.stop(load, .cancel)
            await harness.start(load)
            await harness.flush(load)
            #expect(load.log.all == ["stopLoading (cancel)", "startLoading"])
            #expect(await scope.requests.count == 0)
            #expect(await stub.hitCount == 0)
            #expect(inFlightCount(in: scope) == 0)
        }
    }

    @Test("a suspend that comes before startLoading() is no cancel: the request is answered when loading starts")
    func suspendBeforeStart() async throws {
        let harness = ProtocolHarness(.runLoop)
        defer { harness.close() }
        try await withStubScope { scope in
            let stub = await scope.stub(.get(Self.url), with: .text("fixed"))
            let load = harness.makeLoad(Self.url)
            await harness.stop(load, .suspend)
            await harness.restart(load)
            #expect(load.log.all == ["stopLoading (suspend)", "startLoading", "response 200", "data \"fixed\"", "finish"])
            #expect(await stub.hitCount == 1)
        }
    }

    // MARK: Tasks Foundation has let go

    /// The state is read however the protocol was created, inside `resume()` on the
    /// caller's task included: a `cancel()` from another thread while `resume()`
    /// holds the task's work queue is queued there before the `startLoading()` that
    /// `resume()` queues, so even the first `startLoading()` can find the task
    /// `.canceling`.
    @Test(
        "a fixed answer is not handed to a task Foundation has let go, however its protocol was created, though the request is recorded",
        arguments: [URLSessionTask.State.canceling, .completed], [true, false]
    )
    func fixedAnswerSkipsATaskLetGo(state: URLSessionTask.State, inResume: Bool) async throws {
        let harness = ProtocolHarness(.runLoop)
        defer { harness.close() }
        try await withStubScope { scope in
            await scope.stub(.get(Self.url), with: .text("fixed"))
            let load = harness.makeLoad(Self.url, inResume: inResume)
            load.task.setState(state)
            await harness.start(load)
            #expect(load.log.all == ["startLoading"])
            #expect(load.task.stateReads == 1)
            #expect(await scope.requests.map(\.description) == ["GET \(Self.url)"])
        }
    }

    @Test("a late answer scheduled before a cancel marked the task canceling is not handed to it when the client thread takes it")
    func lateAnswerSkipsACancelingTask() async throws {
        let harness = ProtocolHarness(.runLoop)
        defer { harness.close() }
        try await withStubScope { scope in
            let answerMayGo = Latch()
            await stubGated(scope, by: answerMayGo)
            let load = harness.makeLoad(Self.url)
            await harness.start(load)
            let hold = await harness.hold(load)
            answerMayGo.open()
            await load.producingTaskEnded.wait()
            // Foundation's cancel() marks the task first and calls stopLoading() later.
            await hold.release { load.task.setState(.canceling) }
            await harness.flush(load)
            await harness.stop(load, .cancel)
            #expect(load.log.all == ["startLoading", "stopLoading (cancel)"])
            #expect(inFlightCount(in: scope) == 0)
        }
    }
}
#endif
