#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

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

    @Test("a response that never comes times out at the request's timeoutInterval")
    func neverTimesOut() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .status(200).delayed(by: .seconds(Int64.max)))
            var request = URLRequest(url: url)
            request.timeoutInterval = 5
            let loading = Task { try await URLSession.stubbed.data(for: request) }
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .seconds(5))
            let error = await #expect(throws: URLError.self) { try await loading.value }
            #expect(error?.code == .timedOut)
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
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .seconds(10))
            let error = await #expect(throws: URLError.self) { try await loading.value }
            #expect(error?.code == .timedOut)
            await cancelled.wait()
        }
    }

    @Test("stream intervals run on the manual clock, and a stalled stream times out idle after its last chunk")
    func streamsOnTheManualClock() async throws {
        let clock = ManualClock()
        let reader = ChunkReader()
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
