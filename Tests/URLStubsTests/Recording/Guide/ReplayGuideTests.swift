#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

// The code of Documentation/Replay.md (and of the Recording article), compiled
// and run. Each snippet sits between `// snippet: NAME` and `// end snippet` and
// must stay identical (after removing its indentation) to the block of that name.

/// Calls the JSON-RPC method `method` with `id` at `endpoint` through the stubbed
/// session, as an app's own client would: returns the `result` as JSON text, and
/// rejects an answer that does not carry `id`.
func callJSONRPC(_ method: String, id: Int, at endpoint: URL) async throws -> String {
    var request = URLRequest(url: endpoint)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"}"#.utf8)
    let (data, _) = try await URLSession.stubbed.data(for: request)
    let answer = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    guard (answer["id"] as? NSNumber)?.intValue == id else { throw URLError(.badServerResponse) }
    let result = try JSONSerialization.data(withJSONObject: answer["result"] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
    return String(decoding: result, as: UTF8.self)
}

/// The JSON-RPC method of a request's body, if it has one.
func jsonRPCMethod(_ request: RecordedRequest) -> String? {
    request.body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["method"] as? String
}

@Suite("The replay guide", .timeLimit(.minutes(1)))
struct ReplayGuideTests {
    /// A JSON-RPC server answering every call with its id and the method's name.
    static func rpcServer() throws -> LocalServer {
        try LocalServer { request in
            let call = (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]) ?? [:]
            let id = (call["id"] as? NSNumber)?.stringValue ?? "null"
            let method = call["method"] as? String ?? "?"
            return ServedResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"jsonrpc":"2.0","id":\#(id),"result":{"tools":["\#(method)-answer"]}}"#.utf8))
        }
    }

    @Test("a JSON-RPC call recorded with .jsonRPC replays with any id once the server is gone, and adds nothing to the cassette")
    func jsonRPC() async throws {
        let directory = try TemporaryDirectory()
        let cassette = directory.file("tools.har")
        let server = try Self.rpcServer()
        let endpoint = server.url("/mcp")
        var answers: [String] = []
        for run in 1...3 {
            if run == 3 {
                server.stop()
            }
            // snippet: jsonrpc
            // Records on the first run (the server must be up), replays on every run after.
            let tools = try await withStubScope(cassette: cassette, mode: .recordMissing, matching: .jsonRPC) { _ in
                try await callJSONRPC("tools/list", id: Int.random(in: 1...1_000_000), at: endpoint)
            }
            // end snippet
            answers.append(tools)
        }
        #expect(answers == Array(repeating: #"{"tools":["tools/list-answer"]}"#, count: 3))
        #expect(server.requests.count == 1)
        let har = try JSONSerialization.jsonObject(with: Data(contentsOf: cassette)) as? [String: Any]
        #expect(((har?["log"] as? [String: Any])?["entries"] as? [Any])?.count == 1)
    }

    @Test("rules add up: ignored and echoed JSON fields, and header fields compared except some")
    func rules() async throws {
        let directory = try TemporaryDirectory()
        let cassette = directory.file("rules.har")
        try writeHAR(#"""
        {"log": {"entries": [{
          "request": {"method": "POST", "url": "https://api.example.com/rpc",
                      "headers": [{"name": "X-Tenant", "value": "blue"}, {"name": "User-Agent", "value": "recorder"}],
                      "postData": {"mimeType": "application/json", "text": "{\"id\":1,\"method\":\"sum\",\"params\":{\"_meta\":{\"progressToken\":\"p-1\"},\"a\":2}}"}},
          "response": {"status": 200, "content": {"text": "{\"id\":1,\"result\":2}"}}}]}}
        """#, to: cassette)
        // snippet: rules
        let rules = CassetteMatching.standard
            .ignoringJSONFields("id", "params._meta.progressToken")  // values that change every run
            .echoingJSONFields("id")                                  // answered with the request's id
            .comparingHeaders(except: "User-Agent", "Date")           // header fields count too
        // end snippet
        try await withStubScope(cassette: cassette, matching: rules) { _ in
            var request = URLRequest(url: URL(string: "https://api.example.com/rpc")!)
            request.httpMethod = "POST"
            request.setValue("blue", forHTTPHeaderField: "X-Tenant")
            request.setValue("replayer", forHTTPHeaderField: "User-Agent")
            request.httpBody = Data(#"{"id":41,"method":"sum","params":{"a":2,"_meta":{"progressToken":"p-9"}}}"#.utf8)
            let (data, _) = try await URLSession.stubbed.data(for: request)
            #expect(String(decoding: data, as: UTF8.self) == #"{"id":41,"result":2}"#)
        }
    }

    @Test("a custom matcher: one entry per JSON-RPC method, whatever else the body says")
    func custom() async throws {
        let directory = try TemporaryDirectory()
        let cassette = directory.file("methods.har")
        try writeHAR(#"""
        {"log": {"entries": [
          {"request": {"method": "POST", "url": "https://api.example.com/rpc", "postData": {"text": "{\"method\":\"ping\",\"at\":1}"}},
           "response": {"status": 200, "content": {"text": "pong"}}},
          {"request": {"method": "POST", "url": "https://api.example.com/rpc", "postData": {"text": "{\"method\":\"stats\",\"at\":1}"}},
           "response": {"status": 200, "content": {"text": "stats"}}}]}}
        """#, to: cassette)
        // snippet: custom
        let byMethod = CassetteMatching.standard
            .comparingBodies(.ignored)
            .matching("the same JSON-RPC method") { request, recorded in
                jsonRPCMethod(request) == jsonRPCMethod(recorded)
            }
        // end snippet
        try await withStubScope(cassette: cassette, matching: byMethod) { _ in
            var request = URLRequest(url: URL(string: "https://api.example.com/rpc")!)
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"method":"stats","at":99}"#.utf8)
            let (data, _) = try await URLSession.stubbed.data(for: request)
            #expect(String(decoding: data, as: UTF8.self) == "stats")
        }
    }

    @Test("a recorded redirect is one exchange per hop, and the client ends where Foundation does")
    func redirects() async throws {
        let directory = try TemporaryDirectory()
        let cassette = directory.file("redirects.har")
        let server = try RecordedRedirectTests.redirectingServer()
        defer { server.stop() }
        let start = server.url("/start")
        let final = server.url("/final?x=1")
        try await withStubScope(cassette: cassette, mode: .record) { scope in
            // snippet: redirect
            let (_, response) = try await URLSession.stubbed.data(from: start)  // 302, then 301, then 200
            #expect(response.url == final)                                       // where Foundation ends up
            #expect(await scope.exchanges.count == 3)                            // one exchange, and one entry, per hop
            // end snippet
        }
        #expect(try RecordedRedirectTests.entries(of: cassette).count == 3)
    }

    @Test("a stubbed redirect to another origin does not carry the Authorization header")
    func credentials() async throws {
        let pdf = Data("%PDF".utf8)
        try await withStubScope { scope in
            // snippet: credentials
            await scope.stub(.get("https://api.example.com/report"), with: .redirect(to: "https://cdn.example.net/report.pdf"))
            await scope.stub(.get("https://cdn.example.net/report.pdf"), with: .data(pdf))
            var request = URLRequest(url: URL(string: "https://api.example.com/report")!)
            request.setValue("Bearer t0k3n", forHTTPHeaderField: "Authorization")
            _ = try await URLSession.stubbed.data(for: request)
            #expect(await scope.requests.last?.header("Authorization") == nil)  // not sent to another origin
            // end snippet
        }
    }

    @Test("a fixture at a URL that is not a file is refused when registered")
    func fixture() async throws {
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                // snippet: fixture
                // Refused: "the fixture at https://example.com/user.json is not a file: ..."
                await scope.stub(.get("https://api.example.com/user"), with: .fixture(at: URL(string: "https://example.com/user.json")!))
                // end snippet
                #expect(await scope.requests.isEmpty)
            }
        }
        #expect(error?.problems.first?.message.contains("the fixture at https://example.com/user.json is not a file") == true)
    }

    // MARK: - The documents match this file

    /// The repository's root, found from this file's path.
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Guide
        .deletingLastPathComponent() // Recording
        .deletingLastPathComponent() // URLStubsTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent()

    /// The named snippets of this file, each without its common indentation.
    static func sourceSnippets(_ text: String) -> [String: String] {
        var snippets: [String: String] = [:]
        for match in text.matches(of: /\n[ ]*\/\/ snippet: (\S+)\n((?:.*\n)*?)[ ]*\/\/ end snippet/) {
            let lines = match.output.2.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
            snippets[String(match.output.1)] = lines.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n") + "\n"
        }
        return snippets
    }

    @Test("every code block of Documentation/Replay.md is a snippet of this file, identical")
    func documentsMatch() throws {
        let guide = try String(contentsOf: Self.root.appending(path: "Documentation/Replay.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = Self.sourceSnippets(source)
        let documented = ComingFromGuideTests.guideSnippets(guide)
        #expect(documented.keys.sorted() == ["credentials", "custom", "fixture", "jsonrpc", "redirect", "rules"])
        #expect(documented.keys.sorted() == compiled.keys.sorted())
        // Every Swift block of the guide is a named snippet.
        #expect(guide.components(separatedBy: "```swift").count - 1 == documented.count)
        for (name, code) in documented {
            #expect(code == compiled[name], "Replay.md's \(name) snippet differs from ReplayGuideTests.swift")
        }
    }

    @Test("the snippet reader removes indentation and notices a one-character change")
    func readerIsStrict() {
        let source = "x\n    // snippet: demo\n    let a = 1\n      .b\n    // end snippet\n"
        #expect(Self.sourceSnippets(source) == ["demo": "let a = 1\n  .b\n"])
        #expect(Self.sourceSnippets(source.replacingOccurrences(of: "1", with: "2")) != ["demo": "let a = 1\n  .b\n"])
    }
}
