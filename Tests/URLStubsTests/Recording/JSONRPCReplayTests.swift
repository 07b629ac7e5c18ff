#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// A request/response protocol whose every request carries a fresh id, recorded
/// through a real client against a real server and replayed with the server gone.
@Suite("Replaying JSON-RPC", .timeLimit(.minutes(1)))
struct JSONRPCReplayTests {
    /// A small JSON-RPC 2.0 client over HTTP: each call gets the next id, and an
    /// answer whose id is not the call's is an error (a real client would wait
    /// forever for its own).
    struct Client {
        struct WrongID: Error, Equatable {
            let sent: Int
            let received: String
        }

        let session: URLSession
        let endpoint: URL
        var nextID: Int

        /// Calls `method` and returns its `result` as canonical JSON text.
        mutating func call(_ method: String, _ params: String? = nil) async throws -> String {
            let id = nextID
            nextID += 1
            var request = URLRequest(url: endpoint)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"\#(params.map { #","params":\#($0)"# } ?? "")}"#.utf8)
            let (data, _) = try await session.data(for: request)
            let answer = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            guard (answer["id"] as? NSNumber)?.intValue == id else {
                throw WrongID(sent: id, received: "\(answer["id"] ?? "none")")
            }
            let result = try JSONSerialization.data(withJSONObject: answer["result"] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
            return String(decoding: result, as: UTF8.self)
        }

        /// The conversation every run has: the same calls, in the same order.
        mutating func converse() async throws -> [String] {
            [
                try await call("initialize", #"{"protocolVersion":"2025-03-26"}"#),
                try await call("tools/list"),
                try await call("tools/call", #"{"name":"add","arguments":{"a":2,"b":3}}"#),
                try await call("tools/call", #"{"name":"add","arguments":{"a":40,"b":2}}"#),
                try await call("tools/list"),
            ]
        }
    }

    /// A JSON-RPC server that answers with the request's id; `tools/list` answers
    /// differently each time it is asked, so that replay order shows.
    static func server() throws -> LocalServer {
        let lists = Shared(0)
        return try LocalServer { request in
            guard let call = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
                  let method = call["method"] as? String else {
                return .text("not JSON-RPC", status: 400)
            }
            let result: String
            switch method {
            case "initialize":
                result = #"{"protocolVersion":"2025-03-26","serverInfo":{"name":"local","version":"1"}}"#
            case "tools/list":
                lists.value += 1
                result = #"{"tools":[{"name":"add"}],"listed":\#(lists.value)}"#
            case "tools/call":
                let arguments = ((call["params"] as? [String: Any])?["arguments"] as? [String: Int]) ?? [:]
                result = #"{"content":[{"type":"text","text":"\#((arguments["a"] ?? 0) + (arguments["b"] ?? 0))"}]}"#
            default:
                result = "null"
            }
            let id = (call["id"] as? NSNumber)?.stringValue ?? "null"
            return ServedResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"jsonrpc":"2.0","id":\#(id),"result":\#(result)}"#.utf8))
        }
    }

    static let expected = [
        #"{"protocolVersion":"2025-03-26","serverInfo":{"name":"local","version":"1"}}"#,
        #"{"listed":1,"tools":[{"name":"add"}]}"#,
        #"{"content":[{"text":"5","type":"text"}]}"#,
        #"{"content":[{"text":"42","type":"text"}]}"#,
        #"{"listed":2,"tools":[{"name":"add"}]}"#,
    ]

    @Test("a JSON-RPC conversation recorded through a real client replays identically with the server stopped, in runs with other ids, and recording missing entries adds nothing")
    func recordAndReplay() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("jsonrpc.har")
        let server = try Self.server()
        let endpoint = server.url("/rpc")
        let recorded = try await withStubScope(cassette: file, mode: .record, matching: .jsonRPC) { _ in
            var client = Client(session: .stubbed, endpoint: endpoint, nextID: 1)
            return try await client.converse()
        }
        server.stop()
        #expect(recorded == Self.expected)
        #expect(server.requests.count == 5)
        let written = try Data(contentsOf: file)
        // The ids are written as they were: nothing redacted them.
        #expect(!String(decoding: written, as: UTF8.self).contains(Redaction.placeholder))

        for (mode, firstID) in [(CassetteMode.replay, 1000), (.replay, 77), (.recordMissing, 5000)] {
            let replayed = try await withStubScope(cassette: file, mode: mode, matching: .jsonRPC) { scope in
                var client = Client(session: .stubbed, endpoint: endpoint, nextID: firstID)
                let results = try await client.converse()
                #expect(await scope.exchanges.map(\.source) == Array(repeating: .cassette(file), count: 5))
                return results
            }
            #expect(replayed == Self.expected, "mode \(mode), ids from \(firstID)")
        }
        // Nothing new was sent, so nothing was written.
        #expect(try Data(contentsOf: file) == written)
        #expect(server.requests.count == 5)
    }

    @Test("without the rules, a replay whose ids differ from the recording's finds no entry")
    func standardRulesMatchTheID() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("jsonrpc.har")
        let server = try Self.server()
        let endpoint = server.url("/rpc")
        try await withStubScope(cassette: file, mode: .record) { _ in
            var client = Client(session: .stubbed, endpoint: endpoint, nextID: 1)
            _ = try await client.converse()
        }
        server.stop()
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope(cassette: file) { _ in
                var client = Client(session: .stubbed, endpoint: endpoint, nextID: 1000)
                let failure = await thrownError(URLError.self) { _ = try await client.call("initialize", #"{"protocolVersion":"2025-03-26"}"#) }
                #expect(failure?.localizedDescription.hasPrefix("URLStubs: no stub matches POST \(endpoint)") == true)
            }
        }
        #expect(error?.problems.count == 1)
    }

    @Test("ignoring the id without echoing it replays answers whose id is the recording's: the client rejects them")
    func ignoringWithoutEcho() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("jsonrpc.har")
        let server = try Self.server()
        let endpoint = server.url("/rpc")
        try await withStubScope(cassette: file, mode: .record) { _ in
            var client = Client(session: .stubbed, endpoint: endpoint, nextID: 1)
            _ = try await client.converse()
        }
        server.stop()
        try await withStubScope(cassette: file, matching: .standard.ignoringJSONFields("id")) { _ in
            var client = Client(session: .stubbed, endpoint: endpoint, nextID: 1000)
            let failure = await thrownError(Client.WrongID.self) { _ = try await client.call("initialize", #"{"protocolVersion":"2025-03-26"}"#) }
            #expect(failure == Client.WrongID(sent: 1000, received: "1"))
        }
    }
}
