#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// Passthrough, recording and replay reach served scopes too: the served route
/// answers through the same resolution as the URL protocol.
@Suite("Served scopes: passthrough, recording and replay", .timeLimit(.minutes(1)))
struct ServedRecordingTests {
    @Test("a served scope standing in for a real server passes a request through to it and serves its real answer")
    func passthroughThroughAServedScope() async throws {
        let upstream = try RecordingTests.server()
        defer { upstream.stop() }
        try await withStubScope { scope in
            await scope.passThrough(.host("127.0.0.1"))
            let server = try await scope.serve(as: upstream.url("/"))
            var request = URLRequest(url: URL(string: "\(server.baseURL)/echo?x=1")!)
            request.httpMethod = "PUT"
            request.setValue("trace-9", forHTTPHeaderField: "X-Trace")
            request.httpBody = Data("payload".utf8)
            let (data, response) = try await plainSession().data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 202)
            #expect(String(decoding: data, as: UTF8.self) == "PUT /echo?x=1 trace-9 payload")
            #expect(await scope.exchanges.map(\.source) == [.network])
        }
    }

    @Test("a cassette replays through a served scope, in order, and the request after its last entry gets the 599 a person reading a UI-test log recognises")
    func cassetteReplaysThroughAServedScope() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("counter.har")
        try writeHAR(CassetteReplayTests.threeAnswers, to: file)
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope(cassette: file) { scope in
                let server = try await scope.serve(as: URL(string: "https://api.example.com")!)
                var answers: [String] = []
                for _ in 1...4 {
                    let (data, response) = try await plainSession().data(from: URL(string: "\(server.baseURL)/counter")!)
                    answers.append("\((response as? HTTPURLResponse)?.statusCode ?? 0) \(data.count > 20 ? "report" : String(decoding: data, as: UTF8.self))")
                }
                #expect(answers == ["200 one", "200 two", "503 three", "599 report"])
            }
        }
        #expect(error?.problems.map(\.message) == [
            "The stub GET https://api.example.com/counter [no query, no body] (from cassette counter.har) expected at most 3 requests but was requested 4 times.",
        ])
    }

    @Test("a served scope records what its passthrough fetched, and a replay of that cassette serves it with the server stopped")
    func recordThenReplayThroughAServedScope() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("users.har")
        let upstream = try RecordingTests.server()
        let origin = upstream.url("/")
        try await withStubScope(cassette: file, mode: .record) { scope in
            await scope.passThrough(.host("127.0.0.1"))
            let server = try await scope.serve(as: origin)
            let (data, _) = try await plainSession().data(from: URL(string: "\(server.baseURL)/users/1")!)
            #expect(String(decoding: data, as: UTF8.self) == #"{"id":1,"name":"Ann"}"#)
        }
        upstream.stop()
        try await withStubScope(cassette: file) { scope in
            let server = try await scope.serve(as: origin)
            let (data, response) = try await plainSession().data(from: URL(string: "\(server.baseURL)/users/1")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == #"{"id":1,"name":"Ann"}"#)
            #expect(await scope.exchanges.map(\.source) == [.cassette(file)])
        }
    }
}
