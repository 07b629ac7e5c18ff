#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Completion-handler API", .timeLimit(.minutes(1)))
struct CompletionHandlerTests {
    @Test("a completion-handler data task receives the stub's data and response")
    func dataTaskReceivesTheStub() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/users/3"), with: .json(UserClient.User(id: 3, name: "Lin"), headers: ["X-Source": "stub"]))
            let (data, response, error) = await completionHandlerData(for: URLRequest(url: URL(string: "https://api.example.com/users/3")!))
            #expect(error == nil)
            #expect(try JSONDecoder().decode(UserClient.User.self, from: data ?? Data()) == UserClient.User(id: 3, name: "Lin"))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(http.value(forHTTPHeaderField: "X-Source") == "stub")
        }
    }

    @Test("a completion-handler data task receives a stubbed error")
    func dataTaskReceivesAnError() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/down"), with: .failure(.cannotConnectToHost))
            let (data, response, error) = await completionHandlerData(for: URLRequest(url: URL(string: "https://api.example.com/down")!))
            #expect(data == nil)
            #expect(response == nil)
            #expect(urlError(error)?.code == .cannotConnectToHost)
        }
    }

    @Test("a delegate-based session receives the whole body once")
    func delegateSessionReceivesTheBody() async throws {
        final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
            // @unchecked: the session calls the delegate on its serial delegate queue only.
            var received = Data()
            let done: AsyncStream<Void>.Continuation
            init(done: AsyncStream<Void>.Continuation) { self.done = done }
            func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) { received.append(data) }
            func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) { done.yield() }
        }
        try await withStubScope { scope in
            let body = Data((0..<100_000).map { UInt8($0 % 256) })
            await scope.stub(.get("https://api.example.com/big"), with: .data(body))
            let (stream, continuation) = AsyncStream<Void>.makeStream()
            let collector = Collector(done: continuation)
            let session = URLSession(configuration: .stubbed, delegate: collector, delegateQueue: nil)
            session.dataTask(with: URL(string: "https://api.example.com/big")!).resume()
            for await _ in stream { break }
            #expect(collector.received == body)
            session.finishTasksAndInvalidate()
        }
    }
}
