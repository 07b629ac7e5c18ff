#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// A written stream (`.stream { writer in ... }`) that reaches its failing,
/// ending or stalling point with a write: the point is acted on as that write is
/// delivered, not when the closure writes again or returns, and the closure is
/// cancelled.
@Suite("Written streams that reach their point", .timeLimit(.minutes(1)))
struct WrittenStreamPointTests {
    private let url = URL(string: "https://api.example.com/written")!

    /// A written stream that writes `a`, then waits until it is cancelled (which
    /// opens `cancelled`).
    private func writesThenWaits(_ cancelled: Latch) -> StubResponse {
        .stream { writer in
            try await writer.write("a")
            await withTaskCancellationHandler {
                await Latch().wait() // Never opened: only a cancel ends the wait.
            } onCancel: {
                cancelled.open()
            }
        }
    }

    private func request(timeout: TimeInterval) -> URLRequest {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        return request
    }

    @Test("failing after the chunk a write delivered fails the request at once, with the chosen error, after that chunk")
    func failsAtTheWrite() async throws {
        let clock = ManualClock()
        let reader = ChunkReader()
        defer { reader.close() }
        let cancelled = Latch()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: writesThenWaits(cancelled).failing(after: .chunks(1), with: .networkConnectionLost))
            let final = await reader.read(request(timeout: 60))
            #expect(final.texts == ["a"])
            #expect(final.errorCode == .networkConnectionLost)
            await cancelled.wait()
            #expect(await scope.exchanges.first?.endedAt == .zero)
        }
    }

    @Test("a point of 0 is reached before the closure writes: the request fails at once with the chosen error, and the closure is cancelled")
    func pointZero() async throws {
        let clock = ManualClock()
        let reader = ChunkReader()
        defer { reader.close() }
        let cancelled = Latch()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: StubResponse.stream { _ in
                await withTaskCancellationHandler {
                    await Latch().wait() // Never opened: only a cancel ends the wait.
                } onCancel: {
                    cancelled.open()
                }
            }.failing(after: .chunks(0), with: .networkConnectionLost))
            let final = await reader.read(request(timeout: 60))
            #expect(final.chunks.isEmpty)
            #expect(final.errorCode == .networkConnectionLost)
            await cancelled.wait()
            #expect(await scope.exchanges.first?.endedAt == .zero)
        }
    }

    @Test("a closure that ignores cancellation does not hold back its stream's point: the request fails at once all the same")
    func closureIgnoringCancellation() async throws {
        let clock = ManualClock()
        let reader = ChunkReader()
        defer { reader.close() }
        let hold = Hold()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: StubResponse.stream { writer in
                try await writer.write("a")
                await hold.wait() // Not ended by a cancel: only by hold.release().
            }.failing(after: .chunks(1), with: .networkConnectionLost))
            // Should the request wait for the closure after all, this ends the wait
            // (and the expectation below fails) instead of hanging the run.
            let watchdog = Task { try? await Task.sleep(for: .patience); hold.release() }
            defer { watchdog.cancel() }
            let final = await reader.read(request(timeout: 60))
            #expect(final.texts == ["a"])
            #expect(final.errorCode == .networkConnectionLost)
            #expect(!hold.isReleased)
            hold.release()
        }
    }

    @Test("ending early after the chunk a write delivered finishes the response at once with what was written")
    func endsAtTheWrite() async throws {
        let clock = ManualClock()
        let reader = ChunkReader()
        defer { reader.close() }
        let cancelled = Latch()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: writesThenWaits(cancelled).endingEarly(after: .bytes(1)))
            let final = await reader.read(request(timeout: 60))
            #expect(final.texts == ["a"])
            #expect(final.error == nil)
            await cancelled.wait()
            guard case let .response(status, _, body)? = await scope.exchanges.first?.outcome else {
                Issue.record("the request is not logged as answered")
                return
            }
            #expect(status == 200)
            #expect(body == Data("a".utf8))
        }
    }

    @Test("stalling after the chunk a write delivered times out the request its timeoutInterval after that chunk, not after the closure")
    func stallsAtTheWrite() async throws {
        let clock = ManualClock()
        let reader = ChunkReader()
        defer { reader.close() }
        let cancelled = Latch()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: writesThenWaits(cancelled).stalling(after: .chunks(1)))
            let task = reader.session.dataTask(with: request(timeout: 60))
            async let reading = reader.read(task)
            await reader.chunks(1, of: task)
            await cancelled.wait()
            try await clock.waitForSleepers(atLeast: 1) // The stall, waiting for its timeout.
            await clock.advance(by: .milliseconds(59_999))
            #expect(reader.reading(of: task).error == nil)
            await clock.advance(by: .milliseconds(1))
            let final = await reading
            #expect(final.texts == ["a"])
            #expect(final.errorCode == .timedOut)
            #expect(await scope.exchanges.first?.endedAt == .seconds(60))
        }
    }
}
