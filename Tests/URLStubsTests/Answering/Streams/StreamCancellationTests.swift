#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

@Suite("Streams that are cancelled, suspended or outlived by their scope", .timeLimit(.minutes(1)))
struct StreamCancellationTests {
    private let url = URL(string: "https://api.example.com/events")!

    /// A stream that writes an event every millisecond until it can write no more,
    /// and opens `ended` when its closure returns.
    private func endless(ended: Latch) -> StubResponse {
        .stream(headers: ["Content-Type": "text/event-stream"]) { writer in
            defer { ended.open() }
            var number = 0
            while true {
                number += 1
                try await writer.write(.message("tick \(number)"))
                try await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    @Test("cancelling 64 streams in 64 parallel scopes stops each at once: the task fails as cancelled, its stream's closure ends, nothing arrives after, nothing stays in flight")
    func cancelUnderParallelScopes() async throws {
        let reader = ChunkReader()
        defer { reader.close() }
        let failures = await withTaskGroup(of: [String].self) { group in
            for index in 0..<64 {
                group.addTask {
                    var failures: [String] = []
                    do {
                        try await withStubScope("stream \(index)") { scope in
                            let ended = Latch()
                            await scope.stub(.get(url), with: endless(ended: ended))
                            let task = reader.session.dataTask(with: URLRequest(url: url))
                            async let reading = reader.read(task)
                            await reader.chunks(2, of: task)
                            task.cancel()
                            let final = await reading
                            await ended.wait() // The closure ended because of the cancel: it never ends otherwise.
                            if final.errorCode != .cancelled { failures.append("\(index): ended with \(String(describing: final.error))") }
                            if final.lateChunks != 0 { failures.append("\(index): \(final.lateChunks) chunks after completion") }
                            if !final.texts.allSatisfy({ $0.hasPrefix("data: tick ") }) { failures.append("\(index): foreign chunk \(final.texts)") }
                            if inFlightCount(in: scope) != 0 { failures.append("\(index): still in flight") }
                            let outcome = await scope.exchanges.first?.description ?? "none"
                            if !outcome.hasSuffix("-> cancelled") { failures.append("\(index): logged as \(outcome)") }
                        }
                    } catch {
                        failures.append("\(index): scope failed: \(error)")
                    }
                    return failures
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures == [])
    }

    @Test("a scope that ends mid-stream fails the request after the chunks it delivered, with the abandoned-request message, and stops its stream")
    func scopeEndsMidStream() async throws {
        let reader = ChunkReader()
        defer { reader.close() }
        let ended = Latch()
        let dataTask = try await withStubScope("ending") { scope in
            await scope.stub(.get(url), with: endless(ended: ended))
            let dataTask = reader.session.dataTask(with: URLRequest(url: url))
            dataTask.resume()
            await reader.chunks(1, of: dataTask)
            return dataTask
        }
        await ended.wait() // Only the scope's end can stop an endless stream.
        let final = await reader.read(ofEnded: dataTask)
        #expect(final.texts.first == "data: tick 1\n\n")
        #expect(final.errorCode == StubFailure.code)
        #expect(final.error?.localizedDescription.hasPrefix("URLStubs: GET \(url) was still waiting for its response when scope") == true)
        #expect(final.lateChunks == 0)
    }

    @Test("a suspended stream holds what it produced until the task resumes, then delivers it in order")
    func suspendMidStream() async throws {
        let reader = ChunkReader()
        defer { reader.close() }
        let rest = Latch()
        let written = Latch()
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .stream { writer in
                try await writer.write("one ")
                await rest.wait()
                try await writer.write("two ")
                try await writer.write("three")
                written.open()
            })
            let task = reader.session.dataTask(with: URLRequest(url: url))
            async let reading = reader.read(task)
            await reader.chunks(1, of: task)
            task.suspend()
            rest.open()
            await written.wait()
            #expect(reader.reading(of: task).texts == ["one "])
            task.resume()
            let final = await reading
            #expect(final.texts == ["one ", "two ", "three"])
            #expect(final.error == nil)
        }
    }

    #if canImport(FoundationNetworking)
    @Test("a cancel mid-stream reaches the protocol: its producing task ends and no client call follows stopLoading(), even when loading starts again")
    func noClientCallAfterCancel() async throws {
        let harness = ProtocolHarness(.runLoop)
        defer { harness.close() }
        let outcome = await StubScope.withNewScope(name: nil, location: here()) { scope in
            let wrote = Latch()
            let never = Latch()
            await scope.stub(.get(url), with: .stream { writer in
                try await writer.write("first")
                wrote.open()
                await never.wait() // Ends only when the task is cancelled.
                try await writer.write("second")
            })
            let load = harness.makeLoad(url.absoluteString)
            await harness.start(load)
            await wrote.wait()
            await harness.flush(load)
            await harness.stop(load, .cancel)
            await load.producingTaskEnded.wait()
            #expect(inFlightCount(in: scope) == 0)
            await harness.restart(load)
            await harness.flush(load)
            return load.log.all
        }
        // The harness's task is no session's: its piece waits for the finish, which never comes.
        #expect(try outcome.result.get() == ["startLoading", "response 200", "stopLoading (cancel)", "startLoading"])
        #expect(outcome.problems.isEmpty)
    }
    #endif
}
