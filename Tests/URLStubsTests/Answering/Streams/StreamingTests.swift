#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

@Suite("Streamed bodies", .timeLimit(.minutes(1)))
struct StreamingTests {
    private let url = URL(string: "https://api.example.com/stream")!
    private let parts = ["alpha ", "beta ", "gamma"].map { Data($0.utf8) }

    @Test("a data delegate receives each chunk on its own, with the response's chunked framing")
    func delegateSeesChunks() async throws {
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(parts, every: .milliseconds(5)))
            let reading = await reader.read(URLRequest(url: url))
            #expect(reading.error == nil)
            #expect(reading.texts == ["alpha ", "beta ", "gamma"])
            #expect(reading.response?.statusCode == 200)
            #expect(reading.response?.value(forHTTPHeaderField: "Transfer-Encoding") == "chunked")
            #expect(reading.response?.value(forHTTPHeaderField: "Content-Length") == nil)
        }
    }

    @Test("data(for:) gets the chunks joined into one body")
    func dataForJoinsChunks() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(parts, every: .milliseconds(5)))
            let (data, response) = try await URLSession.stubbed.data(from: url)
            #expect(String(decoding: data, as: UTF8.self) == "alpha beta gamma")
            #expect(HTTPURLResponse.status(of: response) == 200)
        }
    }

    @Test("a completion handler gets the chunks joined into one body")
    func completionHandlerJoinsChunks() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(parts))
            let (data, response, error) = await completionHandlerData(for: URLRequest(url: url))
            #expect(error == nil)
            #expect(data.map { String(decoding: $0, as: UTF8.self) } == "alpha beta gamma")
            #expect(HTTPURLResponse.status(of: response) == 200)
        }
    }

    @Test("a direct answer gets the chunks joined into one body")
    func directAnswerJoinsChunks() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(parts, every: .milliseconds(1)))
            let (data, _) = try await scope.data(from: url)
            #expect(String(decoding: data, as: UTF8.self) == "alpha beta gamma")
        }
    }

    @Test("server-sent events are framed so that a client parses back every field")
    func serverSentEventsParseBack() async throws {
        let events: [StubServerSentEvent] = [
            .comment("keep-alive"),
            StubServerSentEvent(data: "first line\nsecond line", event: "update", id: "7", retry: .milliseconds(1_500)),
            .message("{\"done\":true}", id: "8"),
            StubServerSentEvent(data: "", comment: "an event with empty data"),
        ]
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .serverSentEvents(events))
            let reading = await reader.read(URLRequest(url: url))
            #expect(reading.chunks.count == 4)
            #expect(reading.texts[0] == ": keep-alive\n\n")
            #expect(reading.texts[1] == "event: update\nid: 7\nretry: 1500\ndata: first line\ndata: second line\n\n")
            #expect(reading.response?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
            #expect(reading.response?.value(forHTTPHeaderField: "Cache-Control") == "no-cache")
            let (parsed, retry) = ServerSentEventParser.parse(reading.text)
            #expect(parsed == [
                .init(type: "update", data: "first line\nsecond line", lastEventID: "7"),
                .init(type: "message", data: "{\"done\":true}", lastEventID: "8"),
                .init(type: "message", data: "", lastEventID: "8"),
            ])
            #expect(retry == 1_500)
        }
    }

    @Test("a stream fails with the chosen error after the chosen number of events")
    func failsAfterEvents() async throws {
        let events = (1...5).map { StubServerSentEvent.message("event \($0)") }
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(
                .get(url),
                with: .serverSentEvents(events).failing(after: .events(3), with: .networkConnectionLost)
            )
            let reading = await reader.read(URLRequest(url: url))
            #expect(reading.texts == ["data: event 1\n\n", "data: event 2\n\n", "data: event 3\n\n"])
            #expect(reading.errorCode == .networkConnectionLost)
            let error = await #expect(throws: URLError.self) { try await URLSession.stubbed.data(from: url) }
            #expect(error?.code == .networkConnectionLost)
            let logged = await scope.exchanges.map(\.description)
            #expect(logged.count == 2)
            #expect(logged.allSatisfy { $0.hasSuffix("failed: \(URLError(.networkConnectionLost).localizedDescription)") })
        }
    }

    @Test("a stream cut after a number of bytes delivers exactly those bytes, splitting a chunk")
    func failsAfterBytes() async throws {
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(parts).failing(after: .bytes(9), with: .timedOut))
            let reading = await reader.read(URLRequest(url: url))
            #expect(reading.texts == ["alpha ", "bet"])
            #expect(reading.errorCode == .timedOut)
        }
    }

    @Test("a stream that ends early finishes normally without its last chunks, and the log keeps what was sent")
    func endsEarly() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(parts).endingEarly(after: .chunks(2)))
            let (data, _) = try await URLSession.stubbed.data(from: url)
            #expect(String(decoding: data, as: UTF8.self) == "alpha beta ")
            let exchange = try #require(await scope.exchanges.first)
            guard case let .response(status, _, body) = exchange.outcome else {
                Issue.record("expected a response, got \(exchange)")
                return
            }
            #expect(status == 200)
            #expect(body == Data("alpha beta ".utf8))
        }
    }

    @Test("a stalled stream delivers nothing more until its task is cancelled, then nothing at all")
    func stallsUntilCancelled() async throws {
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(parts).stalling(after: .chunks(1)))
            let task = reader.session.dataTask(with: URLRequest(url: url))
            async let reading = reader.read(task)
            await reader.chunks(1, of: task)
            task.cancel()
            let ended = await reading
            #expect(ended.texts == ["alpha "])
            #expect(ended.errorCode == .cancelled)
            let exchange = try #require(await scope.exchanges.first)
            #expect(exchange.description.hasSuffix("-> cancelled"))
            #expect(inFlightCount(in: scope) == 0)
        }
    }

    @Test("a written stream delivers each write as a chunk, in the request's scope")
    func writtenStream() async throws {
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .stream(headers: ["Content-Type": "text/plain"]) { writer in
                for word in ["one", "two", "three"] {
                    try await writer.write(word)
                }
                #expect(StubScope.current == scope)
            })
            let reading = await reader.read(URLRequest(url: url))
            #expect(reading.texts == ["one", "two", "three"])
            #expect(reading.error == nil)
            #expect(reading.response?.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        }
    }

    @Test("an error a written stream throws fails the request after the chunks written before it")
    func writtenStreamThrows() async throws {
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .stream { writer in
                try await writer.write("partial")
                throw URLError(.cannotParseResponse)
            })
            let reading = await reader.read(URLRequest(url: url))
            #expect(reading.texts == ["partial"])
            #expect(reading.errorCode == .cannotParseResponse)
        }
    }

    @Test("a throttled body arrives in slices of a twentieth of a second's worth, no faster than the rate")
    func throttled() async throws {
        let body = Data(repeating: 0x61, count: 2_000)
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .data(body).throttled(bytesPerSecond: 20_000))
            let clock = ContinuousClock()
            let start = clock.now
            let reading = await reader.read(URLRequest(url: url))
            #expect(clock.now - start >= .milliseconds(100)) // 2,000 bytes at 20,000 per second.
            #expect(reading.chunks.map(\.count) == Array(repeating: 1_000, count: 2))
            #expect(reading.response?.value(forHTTPHeaderField: "Content-Length") == "2000")
        }
    }

    @Test("a HEAD request to a stream gets its header and no body")
    func headRequest() async throws {
        try await withStubScope { scope in
            await scope.stub(.head(url), with: .chunks(parts))
            var request = URLRequest(url: url)
            request.httpMethod = "HEAD"
            let (data, response) = try await URLSession.stubbed.data(for: request)
            #expect(data.isEmpty)
            #expect(HTTPURLResponse.status(of: response) == 200)
        }
    }
}
