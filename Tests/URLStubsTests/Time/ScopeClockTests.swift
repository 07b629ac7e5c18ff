#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

/// A client that retries a request answered 503 after a backoff of 1, 2, 4… seconds,
/// sleeping on the clock it is given: the kind of code a test clock is for.
private struct RetryingClient: Sendable {
    let clock: any Clock<Duration>
    var attempts = 5

    func load(_ url: URL) async throws -> Data {
        var backoff = Duration.seconds(1)
        for _ in 1..<attempts {
            let (data, response) = try await URLSession.stubbed.data(from: url)
            guard HTTPURLResponse.status(of: response) == 503 else { return data }
            try await clock.sleep(for: backoff)
            backoff *= 2
        }
        throw URLError(.badServerResponse)
    }
}

extension RecordedExchange.Outcome {
    /// The kind of outcome, as one word.
    var word: String {
        switch self {
        case .waiting: "waiting"
        case .response: "response"
        case .failure: "failure"
        case .cancelled: "cancelled"
        case .abandoned: "abandoned"
        }
    }
}

@Suite("Time on the scope's clock", .timeLimit(.minutes(1)))
struct ScopeClockTests {
    private let url = URL(string: "https://api.example.com/slow")!

    @Test("a retry with backoff against 503, 503, 200 makes its requests at exactly 0, 1 and 3 seconds on a manual clock")
    func retryWithBackoff() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .sequence([.status(503), .status(503), .text("ok")]))
            let loading = Task { try await RetryingClient(clock: clock).load(url) }
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .seconds(1))
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .seconds(2))
            #expect(try await loading.value == Data("ok".utf8))
            #expect(await scope.exchanges.map(\.startedAt) == [.zero, .seconds(1), .seconds(3)])
        }
    }

    @Test("a response delayed past a 60-second timeoutInterval fails with timedOut at exactly 60 seconds, not before")
    func timeoutOnTheManualClock() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .text("too late").delayed(by: .seconds(90)))
            var request = URLRequest(url: url)
            request.timeoutInterval = 60
            let loading = Task { try await URLSession.stubbed.data(for: request) }
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .seconds(59))
            #expect(clock.sleeperCount == 1)
            await clock.advance(by: .seconds(1))
            let error = await #expect(throws: URLError.self) { try await loading.value }
            #expect(error?.code == .timedOut)
            #expect(error?.localizedDescription == "URLStubs: GET \(url) timed out: no answer within its timeoutInterval of 60.0 seconds on its scope's clock.")
            let exchange = try #require(await scope.exchanges.first)
            #expect(exchange.startedAt == .zero)
            #expect(exchange.endedAt == .seconds(60))
        }
    }

    @Test("a zero, negative or infinite timeoutInterval never times out: a response delayed by 10,000 seconds arrives", arguments: [0, -1, TimeInterval.infinity])
    func noTimeout(interval: TimeInterval) async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .text("at last").delayed(by: .seconds(10_000)))
            var request = URLRequest(url: url)
            request.timeoutInterval = interval
            let loading = Task { try await URLSession.stubbed.data(for: request) }
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .seconds(9_999))
            #expect(clock.sleeperCount == 1)
            await clock.advance(by: .seconds(1))
            let (data, _) = try await loading.value
            #expect(data == Data("at last".utf8))
            #expect(await scope.exchanges.first?.endedAt == .seconds(10_000))
        }
    }

    @Test("a delayed response arrives when the manual clock reaches its delay, within the timeout")
    func delayOnTheManualClock() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .text("on time").delayed(by: .seconds(30)))
            let loading = Task { try await URLSession.stubbed.data(from: url) }
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .seconds(30))
            let (data, _) = try await loading.value
            #expect(data == Data("on time".utf8))
            #expect(await scope.exchanges.first?.endedAt == .seconds(30))
        }
    }

    @Test("a request that waits for ever (.noResponse with a zero timeoutInterval) is not one of the manual clock's sleepers: no advance could wake it")
    func endlessWaitIsNotASleeper() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .noResponse)
            var request = URLRequest(url: url)
            request.timeoutInterval = 0
            let loading = Task { [request] in try await URLSession.stubbed.data(for: request) }
            _ = try await scope.waitForRequest(matching: .get(url), timeout: .patience)
            await #expect(throws: ManualClock.SleepersTimeout.self) {
                try await clock.waitForSleepers(atLeast: 1, timeout: .milliseconds(300))
            }
            #expect(clock.sleeperCount == 0)
            loading.cancel()
            let error = await #expect(throws: URLError.self) { try await loading.value }
            #expect(error?.code == .cancelled)
        }
    }

    @Test("a response that never comes times out at the request's timeoutInterval")
    func neverTimesOut() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .noResponse)
            var request = URLRequest(url: url)
            request.timeoutInterval = 5
            let loading = Task { try await URLSession.stubbed.data(for: request) }
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .seconds(5))
            let error = await #expect(throws: URLError.self) { try await loading.value }
            #expect(error?.code == .timedOut)
        }
    }

    @Test("run() wakes the sleepers and stops: a request whose closure awaits another task is not timed out by it, and is answered when that task lets it")
    func runLeavesWatchedTimeouts() async throws {
        let clock = ManualClock()
        let gate = Latch()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url)) { _ in
                await gate.wait()
                return .text("computed")
            }
            await scope.stub(.get(url.appendingPathComponent("slow")), with: .text("slow").delayed(by: .seconds(5)))
            var request = URLRequest(url: url)
            request.timeoutInterval = 60
            let computed = Task { try await URLSession.stubbed.data(for: request) }
            let slow = Task { try await URLSession.stubbed.data(from: url.appendingPathComponent("slow")) }
            try await clock.waitForSleepers(atLeast: 1)
            _ = try await scope.waitForRequests(count: 2, timeout: .patience)
            #expect(await clock.run())
            #expect(clock.now == .zero.advanced(by: .seconds(5)))
            #expect(try await slow.value.0 == Data("slow".utf8))
            gate.open()
            #expect(try await computed.value.0 == Data("computed".utf8))
        }
    }

    @Test("a computed response still running at the timeout fails the request with timedOut, and its closure is cancelled")
    func computedResponseTimesOut() async throws {
        let clock = ManualClock()
        let cancelled = Latch()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url)) { _ in
                await withTaskCancellationHandler {
                    await Latch().wait() // Never opened: only a cancel ends the wait.
                } onCancel: {
                    cancelled.open()
                }
                return .text("never")
            }
            var request = URLRequest(url: url)
            request.timeoutInterval = 10
            let loading = Task { try await URLSession.stubbed.data(for: request) }
            // The timeout is watched while the closure runs, not slept: it is no sleeper.
            _ = try await scope.waitForRequest(timeout: .patience)
            #expect(clock.sleeperCount == 0)
            await clock.advance(by: .seconds(10))
            let error = await #expect(throws: URLError.self) { try await loading.value }
            #expect(error?.code == .timedOut)
            await cancelled.wait()
        }
    }

    @Test("a computed response whose closure ignores cancellation still fails at the timeout, without waiting for the closure")
    func closureIgnoringCancellationTimesOut() async throws {
        let clock = ManualClock()
        let hold = Hold()
        let started = Latch()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url)) { _ in
                started.open()
                await hold.wait() // Not ended by a cancel: only by hold.release().
                return .text("too late")
            }
            var request = URLRequest(url: url)
            request.timeoutInterval = 10
            let loading = Task { try await URLSession.stubbed.data(for: request) }
            // Should the request wait for the closure after all, this ends the wait
            // (and the expectation below fails) instead of hanging the run.
            let watchdog = Task { try? await Task.sleep(for: .patience); hold.release() }
            defer { watchdog.cancel() }
            await started.wait()
            await clock.advance(by: .seconds(10))
            let error = await #expect(throws: URLError.self) { try await loading.value }
            #expect(error?.code == .timedOut)
            #expect(!hold.isReleased)
            hold.release()
        }
    }

    @Test("a watched timeout ends at its instant on the manual clock, even when the clock passed that instant before the watch began")
    func watchEndsAtAnInstant() async {
        let manual = ManualClock()
        let clock = ScopeClock.given(manual)
        await manual.advance(by: .seconds(10))
        // Begun after the advance: it ends at once, not 10 s after the advance.
        #expect(await clock.watch(.seconds(10)))
        let watching = Task { await clock.watch(.seconds(15)) }
        await manual.advance(by: .seconds(5))
        #expect(await watching.value)
        #expect(manual.sleeperCount == 0)
    }

    @Test("stream intervals run on the manual clock, and a stalled stream times out idle after its last chunk")
    func streamsOnTheManualClock() async throws {
        let clock = ManualClock()
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope(clock: clock) { scope in
            let parts = ["a", "b", "c"].map { Data($0.utf8) }
            await scope.stub(.get(url), with: .chunks(parts, every: .seconds(10)).stalling(after: .chunks(2)))
            var request = URLRequest(url: url)
            request.timeoutInterval = 30
            let task = reader.session.dataTask(with: request)
            async let reading = reader.read(task)
            await reader.chunks(1, of: task)
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .seconds(10))
            await reader.chunks(2, of: task)
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .seconds(29))
            #expect(reader.reading(of: task).error == nil)
            await clock.advance(by: .seconds(1))
            let final = await reading
            #expect(final.texts == ["a", "b"])
            #expect(final.errorCode == .timedOut)
            #expect(await scope.exchanges.first?.endedAt == .seconds(40))
        }
    }

    @Test("the log records how each request ended (answered, cancelled, abandoned) and when, on the scope's clock; the scope reports the most requests in flight at once; times: .atLeast(1).eachCancelled holds the stub to cancels")
    func endingsInTheLog() async throws {
        let clock = ManualClock()
        let base = "https://api.example.com"
        let line = #line + 3 // The stub for /answered.
        let outcome = await StubScope.withNewScope(name: nil, location: here(), clock: clock) { scope in
            await scope.stub(.get("\(base)/cancel-me"), with: .text("x").delayed(by: .seconds(10)), times: .atLeast(1).eachCancelled)
            await scope.stub(.get("\(base)/answered"), with: .text("y").delayed(by: .seconds(10)), times: .atLeast(1).eachCancelled)
            await scope.stub(.get("\(base)/abandoned"), with: .noResponse)
            await scope.stub(.get("\(base)/fast"), with: .text("z"))
            let cancelled = Task { try await URLSession.stubbed.data(from: URL(string: "\(base)/cancel-me")!) }
            let answered = Task { try await URLSession.stubbed.data(from: URL(string: "\(base)/answered")!) }
            let abandoned = Task { try await URLSession.stubbed.data(from: URL(string: "\(base)/abandoned")!) }
            try await clock.waitForSleepers(atLeast: 3)
            _ = try await URLSession.stubbed.data(from: URL(string: "\(base)/fast")!)
            #expect(await scope.maxInFlight == 4) // Three waiting, and the fast one for its instant.
            cancelled.cancel()
            _ = await cancelled.result
            await clock.advance(by: .seconds(10))
            _ = try await answered.value
            return abandoned
        }
        let exchanges = outcome.exchanges.map { "\($0.request.url.path) \($0.outcome.word) \($0.startedAt) \($0.endedAt.map { "\($0)" } ?? "-")" }.sorted()
        #expect(exchanges == [
            "/abandoned abandoned 0.0 seconds 10.0 seconds",
            "/answered response 0.0 seconds 10.0 seconds",
            "/cancel-me cancelled 0.0 seconds 0.0 seconds",
            "/fast response 0.0 seconds 0.0 seconds",
        ])
        #expect(outcome.problems.filter { !$0.isWarning }.map(\.message) == [
            "The stub GET \(base)/answered (registered at URLStubsTests/ScopeClockTests.swift:\(line)) expected every request to be cancelled by its caller, but 1 of 1 got its answer.",
        ])
        let error = await #expect(throws: URLError.self) { try await outcome.result.get().value }
        #expect(error?.code == StubFailure.code)
    }

    @Test("a nested scope keeps its enclosing scope's clock, and the scope reports its clock")
    func nestedScopesInheritTheClock() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { outer in
            #expect(await outer.clock as? ManualClock === clock)
            try await withStubScope { inner in
                #expect(await inner.clock as? ManualClock === clock)
            }
        }
        try await withStubScope { scope in
            #expect(await scope.clock is ContinuousClock)
        }
    }
}
