#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

/// How a stalled stream (`.stalling(after:)`) ends with its scope (its timeout:
/// `ScopeClockTests`), and a written stream's writes once it is cancelled
/// (StreamsAndRedirects.md).
@Suite("Stalled and cancelled streams: how they end", .timeLimit(.minutes(1)))
struct StalledStreamTests {
    private let url = URL(string: "https://api.example.com/stall")!

    @Test("a stream that stalls and outlives its scope fails as abandoned when the scope ends, after its first chunk")
    func stallEndsWithTheScope() async throws {
        let pending = Locked<Task<(Data, URLResponse), any Error>?>(nil)
        let outcome = await StubScope.withNewScope(name: "stalling", location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)) { scope in
            await scope.stub(.get(url), with: .chunks([Data("a".utf8), Data("b".utf8)]).stalling(after: .chunks(1)))
            let task = Task { try await URLSession.stubbed.data(from: url) }
            pending.withLock { $0 = task }
            _ = try await scope.waitForRequest(matching: .get(url), timeout: .patience)
        }
        let task = try #require(pending.withLock { $0 })
        let error = await #expect(throws: URLError.self) { try await task.value }
        #expect(error?.localizedDescription.contains("was still waiting for its response") == true)
        #expect(outcome.problems.map(\.isWarning) == [true])
    }

    @Test("once the request is cancelled, a written stream's next write throws, even in a closure that ignores the cancel")
    func writesThrowAfterACancel() async throws {
        let wrote = Latch()
        let ended = Latch()
        let second = Locked<String>("not reached")
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .stream { writer in
                defer { ended.open() }
                try await writer.write("first")
                wrote.open()
                while !Task.isCancelled { await Task.yield() }
                do {
                    try await writer.write("second")
                    second.withLock { $0 = "returned" }
                } catch {
                    second.withLock { $0 = "threw" }
                }
            })
            let task = Task { try await URLSession.stubbed.data(from: url) }
            await wrote.wait()
            task.cancel()
            _ = await task.result
            await ended.wait()
        }
        #expect(second.withLock { $0 } == "threw")
    }
}
