#if canImport(ObjectiveC)
import Foundation
import Testing
@testable import URLStubs

/// Streams and redirects through Apple's URL loading, which only a Mac or an iOS
/// simulator can run: `bytes(for:)` reads a body as it arrives, and URLSession
/// follows redirects itself, asking the session's delegate.
@Suite("Apple platforms: streamed bodies and redirects", .timeLimit(.minutes(1)))
struct AppleStreamingTests {
    private let url = URL(string: "https://api.example.com/events")!

    @Test("bytes(for:) reads server-sent events line by line as they arrive, before the stream ends")
    func bytesLinesArriveAsWritten() async throws {
        try await withStubScope { scope in
            let firstRead = Latch()
            await scope.stub(.get(url), with: .stream(headers: ["Content-Type": "text/event-stream"]) { writer in
                try await writer.write(.message("one"))
                await firstRead.wait() // Only a client that reads before the end opens it.
                try await writer.write(.message("two"))
            })
            let (bytes, response) = try await URLSession.stubbed.bytes(for: URLRequest(url: url))
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
            var lines: [String] = []
            for try await line in bytes.lines {
                lines.append(line)
                if line == "data: one" {
                    firstRead.open()
                }
            }
            #expect(lines == ["data: one", "data: two"])
        }
    }

    @Test("bytes(for:) throws the stream's error after the lines delivered before it")
    func bytesFailMidStream() async throws {
        try await withStubScope { scope in
            let events = (1...4).map { StubServerSentEvent.message("event \($0)") }
            await scope.stub(.get(url), with: .serverSentEvents(events).failing(after: .events(2), with: .networkConnectionLost))
            let (bytes, _) = try await URLSession.stubbed.bytes(for: URLRequest(url: url))
            var lines: [String] = []
            let error = await #expect(throws: URLError.self) {
                for try await line in bytes.lines {
                    lines.append(line)
                }
            }
            #expect(error?.code == .networkConnectionLost)
            #expect(lines == ["data: event 1", "data: event 2"])
        }
    }

    @Test("data(for:) gets every chunk of a stream, joined")
    func dataForJoins() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(["a", "b", "c"].map { Data($0.utf8) }, every: .milliseconds(5)))
            let (data, _) = try await URLSession.stubbed.data(for: URLRequest(url: url))
            #expect(String(decoding: data, as: UTF8.self) == "abc")
        }
    }

    @Test("a data delegate receives each chunk on its own")
    func delegateSeesChunks() async throws {
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(["a", "b", "c"].map { Data($0.utf8) }, every: .milliseconds(5)))
            let reading = await reader.read(URLRequest(url: url))
            #expect(reading.texts == ["a", "b", "c"])
        }
    }

    @Test("URLSession follows a stubbed redirect itself; each hop is answered and logged in the scope")
    func redirectFollowedByURLSession() async throws {
        let old = URL(string: "https://api.example.com/old")!
        let new = URL(string: "https://api.example.com/new")!
        try await withStubScope { scope in
            await scope.stub(.post(old), with: .redirect(to: "/new", status: 303))
            await scope.stub(.get(new), with: .text("here"))
            var request = URLRequest(url: old)
            request.httpMethod = "POST"
            request.httpBody = Data("x".utf8)
            let (data, response) = try await URLSession.stubbed.data(for: request)
            #expect(String(decoding: data, as: UTF8.self) == "here")
            #expect(response.url == new)
            #expect(await scope.requests.map { "\($0.method) \($0.url.path)" } == ["POST /old", "GET /new"])
        }
    }

    @Test("a task delegate is asked before each hop, with the next request; refusing it loads nothing more and ends the task with NSUserCancelledError")
    func delegateRefusesARedirect() async throws {
        let old = URL(string: "https://api.example.com/old")!
        let refuser = RedirectRefuser()
        try await withStubScope { scope in
            await scope.stub(.get(old), with: .redirect(to: "/new", status: 302))
            await scope.stub(.get("https://api.example.com/new"), with: .text("must not be loaded"))
            let ending: String
            do {
                let (_, response) = try await URLSession.stubbed.data(for: URLRequest(url: old), delegate: refuser)
                ending = "response \((response as? HTTPURLResponse)?.statusCode ?? 0)"
            } catch {
                ending = "error \((error as NSError).domain) \((error as NSError).code)"
            }
            // The protocol reports the hop, then ends its load as Apple's own
            // CustomHTTPProtocol sample does; a refused hop leaves that error.
            #expect(ending == "error \(NSCocoaErrorDomain) \(NSUserCancelledError)")
            #expect(refuser.asked == ["302 -> https://api.example.com/new"])
            #expect(await scope.requests.map(\.url.path) == ["/old"])
        }
    }
}

/// A task delegate that refuses every redirect and records what it was asked.
private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    // @unchecked: `recorded` is read and written while `lock` is held.
    private let lock = NSLock()
    private var recorded: [String] = []

    var asked: [String] {
        lock.withLock { recorded }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest
    ) async -> URLRequest? {
        lock.withLock { recorded.append("\(response.statusCode) -> \(request.url?.absoluteString ?? "?")") }
        return nil
    }
}
#endif
