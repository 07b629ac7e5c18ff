#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// A written stream (`.stream { writer in ... }`) whose closure stops writing
/// leaves its request idle: it times out at the request's `timeoutInterval`,
/// counted from the last piece (or from the stream's start), as `.noResponse`, stalls
/// and computed answers do, with the same message.
@Suite("Written streams that stop writing", .timeLimit(.minutes(1)))
struct WrittenStreamTimeoutTests {
    private let url = URL(string: "https://api.example.com/written")!

    private func request(timeout: TimeInterval) -> URLRequest {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        return request
    }

    private func timedOutMessage(after seconds: String) -> String {
        "URLStubs: GET \(url) timed out: no answer within its timeoutInterval of \(seconds) seconds on its scope's clock."
    }

    @Test("a closure that writes nothing times out idle at the timeoutInterval after the stream starts, not before, and is cancelled")
    func silentBeforeTheFirstPiece() async throws {
        let clock = ManualClock()
        let reader = ChunkReader()
        defer { reader.close() }
        let started = Latch()
        let cancelled = Latch()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .stream { _ in
                started.open()
                await withTaskCancellationHandler {
                    await Latch().wait() // Never opened: only a cancel ends the wait.
                } onCancel: {
                    cancelled.open()
                }
            })
            let task = reader.session.dataTask(with: request(timeout: 5))
            async let reading = reader.read(task)
            await started.wait()
            #expect(clock.sleeperCount == 0) // The idle timeout is watched, not slept.
            await clock.advance(by: .milliseconds(4_999))
            #expect(reader.reading(of: task).error == nil)
            await clock.advance(by: .milliseconds(1))
            let final = await reading
            #expect(final.chunks.isEmpty)
            #expect(final.errorCode == .timedOut)
            #expect((final.error as? URLError)?.localizedDescription == timedOutMessage(after: "5.0"))
            await cancelled.wait()
            let exchange = try #require(await scope.exchanges.first)
            #expect(exchange.endedAt == .seconds(5))
            guard case let .failure(error) = exchange.outcome else {
                Issue.record("the log says \(exchange.outcome.word), not failure")
                return
            }
            #expect((error as? URLError)?.code == .timedOut)
        }
    }

    @Test("a closure that stops after its first piece times out idle at the timeoutInterval after that piece, keeping what it wrote")
    func silentAfterTheFirstPiece() async throws {
        let clock = ManualClock()
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .stream { writer in
                try await clock.sleep(for: .seconds(2))
                try await writer.write("a")
                await Latch().wait() // Never opened: only a cancel ends the wait.
            })
            let task = reader.session.dataTask(with: request(timeout: 5))
            async let reading = reader.read(task)
            try await clock.waitForSleepers(atLeast: 1) // The closure's own sleep, not the timeout.
            await clock.advance(by: .seconds(2))
            await reader.chunks(1, of: task)
            await clock.advance(by: .milliseconds(4_999))
            #expect(reader.reading(of: task).error == nil)
            await clock.advance(by: .milliseconds(1))
            let final = await reading
            #expect(final.texts == ["a"])
            #expect(final.errorCode == .timedOut)
            #expect((final.error as? URLError)?.localizedDescription == timedOutMessage(after: "5.0"))
            #expect(await scope.exchanges.first?.endedAt == .seconds(7))
        }
    }

    @Test("a closure that keeps writing within the interval is never timed out, however long it runs in all")
    func steadyWriterIsNotTimedOut() async throws {
        let clock = ManualClock()
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .stream { writer in
                for piece in ["a", "b", "c", "d"] {
                    try await clock.sleep(for: .seconds(4))
                    try await writer.write(piece)
                }
            })
            let task = reader.session.dataTask(with: request(timeout: 5))
            async let reading = reader.read(task)
            for count in 1...4 {
                try await clock.waitForSleepers(atLeast: 1)
                await clock.advance(by: .seconds(4))
                await reader.chunks(count, of: task)
            }
            let final = await reading
            #expect(final.texts == ["a", "b", "c", "d"])
            #expect(final.error == nil)
            #expect(await scope.exchanges.first?.endedAt == .seconds(16))
        }
    }

    @Test("on the continuous clock too, a silent closure times out, through async URLSession")
    func continuousClock() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .stream { _ in await Latch().wait() })
            let error = await #expect(throws: URLError.self) {
                _ = try await URLSession.stubbed.data(for: request(timeout: 0.2))
            }
            #expect(error?.code == .timedOut)
            #expect(error?.localizedDescription == timedOutMessage(after: "0.2"))
        }
    }

    @Test("a computed answer delayed by 0.55 s arrives at 0.55 s: waitForSleepers waits for its delay, not for the request's timeout")
    func computedDelayedAnswer() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url)) { _ in .text("late").delayed(by: .milliseconds(550)) }
            let loading = Task { try await URLSession.stubbed.data(from: url) }
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .milliseconds(550))
            // Bounded: an answer not due yet would wait forever for another advance.
            let watchdog = Task {
                try await Task.sleep(for: .patience)
                loading.cancel()
            }
            defer { watchdog.cancel() }
            let (data, _) = try await loading.value
            #expect(data == Data("late".utf8))
            #expect(await scope.exchanges.first?.endedAt == .milliseconds(550))
        }
    }
}
