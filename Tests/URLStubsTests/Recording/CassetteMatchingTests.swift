#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// Per-cassette matching rules (`CassetteMatching`), one rule at a time.
@Suite("Cassette matching rules", .timeLimit(.minutes(1)))
struct CassetteMatchingTests {
    /// A HAR file of `entries`, each `(method, url, request headers, request body, response body)`.
    static func har(_ entries: [(String, String, [String: String], String?, String)]) -> String {
        func quoted(_ text: String) -> String {
            String(decoding: try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed]), as: UTF8.self)
        }
        let items = entries.map { method, url, headers, body, answer in
            let fields = headers.sorted { $0.key < $1.key }.map { #"{"name":\#(quoted($0.key)),"value":\#(quoted($0.value))}"# }.joined(separator: ",")
            let post = body.map { #","postData":{"mimeType":"application/json","text":\#(quoted($0))}"# } ?? ""
            return #"{"request":{"method":"\#(method)","url":"\#(url)","headers":[\#(fields)]\#(post)},"response":{"status":200,"headers":[{"name":"Content-Type","value":"application/json"}],"content":{"text":\#(quoted(answer))}}}"#
        }
        return #"{"log":{"entries":[\#(items.joined(separator: ","))]}}"#
    }

    /// Sends `body` (and `headers`) to `url` with `method` through the stubbed session.
    static func send(_ method: String, _ url: String, body: String? = nil, headers: [String: String] = [:]) async throws -> (String, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await URLSession.stubbed.data(for: request)
        return (String(decoding: data, as: UTF8.self), try #require(response as? HTTPURLResponse))
    }

    /// Runs `body` in a scope replaying `har` with `matching`.
    static func replaying(_ har: String, matching: CassetteMatching, _ body: (StubScope) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("rules.har")
        try writeHAR(har, to: file)
        try await withStubScope(cassette: file, matching: matching) { scope in try await body(scope) }
    }

    @Test("JSON bodies compare as JSON by default: key order, white space and number spelling do not matter, and such entries answer in order")
    func jsonByDefault() async throws {
        let har = Self.har([
            ("POST", "https://api.example.com/q", [:], #"{"a":1,"b":[1,2]}"#, "first"),
            ("POST", "https://api.example.com/q", [:], #"{"b":[1,2],"a":1}"#, "second"),
        ])
        try await Self.replaying(har, matching: .standard) { _ in
            let answer1 = try await Self.send("POST", "https://api.example.com/q", body: #"{ "b": [1, 2], "a": 1.0 }"#).0
            #expect(answer1 == "first")
            let answer2 = try await Self.send("POST", "https://api.example.com/q", body: #"{"a":1,"b":[1,2]}"#).0
            #expect(answer2 == "second")
        }
    }

    @Test("ignored JSON fields match any value, nested and in every element of a batch; the other fields still count")
    func ignoredFields() async throws {
        let har = Self.har([
            ("POST", "https://api.example.com/rpc", [:], #"{"id":1,"method":"list","params":{"cursor":"abc","limit":10}}"#, "page"),
            ("POST", "https://api.example.com/rpc", [:], #"[{"id":2,"method":"a"},{"id":3,"method":"b"}]"#, "batch"),
        ])
        let error = await thrownError(StubVerificationError.self) {
            try await Self.replaying(har, matching: .standard.ignoringJSONFields("id", "$.params.cursor")) { _ in
                let answer3 = try await Self.send("POST", "https://api.example.com/rpc", body: #"{"id":99,"method":"list","params":{"cursor":"zzz","limit":10}}"#).0
                #expect(answer3 == "page")
                let answer4 = try await Self.send("POST", "https://api.example.com/rpc", body: #"[{"id":7,"method":"a"},{"id":8,"method":"b"}]"#).0
                #expect(answer4 == "batch")
                let other = await thrownError(URLError.self) {
                    _ = try await Self.send("POST", "https://api.example.com/rpc", body: #"{"id":99,"method":"list","params":{"cursor":"zzz","limit":11}}"#)
                }
                #expect(other?.localizedDescription.contains(#"body "{"id":1,"method":"list","params":{"cursor":"abc","limit":10}}" ignoring JSON id, $.params.cursor"#) == true)
            }
        }
        #expect(error?.problems.count == 1)
    }

    @Test("echoed JSON fields take the request's values, paired element by element in a batch, with a Content-Length that fits the new body")
    func echoedFields() async throws {
        let har = Self.har([
            ("POST", "https://api.example.com/rpc", [:], #"[{"id":2,"method":"a"},{"id":3,"method":"b"}]"#, #"[{"id":2,"result":"A"},{"id":3,"result":"B"}]"#),
            ("POST", "https://api.example.com/rpc", [:], #"{"id":1,"method":"c","params":{"meta":{"token":"t1"}}}"#, #"{"id":1,"result":{"meta":{"token":"t1"}},"extra":true}"#),
        ])
        try await Self.replaying(har, matching: .jsonRPC.ignoringJSONFields("params.meta.token").echoingJSONFields("result.meta.token")) { _ in
            let (batch, _) = try await Self.send("POST", "https://api.example.com/rpc", body: #"[{"id":70,"method":"a"},{"id":80,"method":"b"}]"#)
            #expect(batch == #"[{"id":70,"result":"A"},{"id":80,"result":"B"}]"#)
            // "result.meta.token" is not in the request: the recorded value stays.
            let (single, response) = try await Self.send("POST", "https://api.example.com/rpc", body: #"{"id":5,"method":"c","params":{"meta":{"token":"t2"}}}"#)
            #expect(single == #"{"extra":true,"id":5,"result":{"meta":{"token":"t1"}}}"#)
            #expect(response.value(forHTTPHeaderField: "Content-Length") == String(single.utf8.count))
        }
    }

    @Test("server-sent events take the echoed fields in each data line of JSON, and other bodies that are not JSON replay as recorded")
    func eventsAndText() async throws {
        let events = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\nevent: note\ndata: not json\n\n"
        let har = Self.har([
            ("POST", "https://api.example.com/mcp", [:], #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, events),
            ("POST", "https://api.example.com/text", [:], #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, "plain id 1"),
        ])
        try await Self.replaying(har, matching: .jsonRPC) { _ in
            let (streamed, _) = try await Self.send("POST", "https://api.example.com/mcp", body: #"{"jsonrpc":"2.0","id":9,"method":"ping"}"#)
            #expect(streamed == "event: message\ndata: {\"id\":9,\"jsonrpc\":\"2.0\",\"result\":{}}\n\nevent: note\ndata: not json\n\n")
            let (text, _) = try await Self.send("POST", "https://api.example.com/text", body: #"{"jsonrpc":"2.0","id":9,"method":"ping"}"#)
            #expect(text == "plain id 1")
        }
    }

    @Test("comparing header fields: the recorded names and values, apart from the ignored ones; a redacted value matches any")
    func headers() async throws {
        let har = Self.har([
            ("GET", "https://api.example.com/me", ["X-Tenant": "blue", "User-Agent": "recorder/1", "Authorization": Redaction.placeholder], nil, "blue me"),
            ("GET", "https://api.example.com/me", ["X-Tenant": "green", "User-Agent": "recorder/1", "Authorization": Redaction.placeholder], nil, "green me"),
        ])
        let error = await thrownError(StubVerificationError.self) {
            try await Self.replaying(har, matching: .standard.comparingHeaders(except: "user-agent")) { _ in
                let green = try await Self.send("GET", "https://api.example.com/me", headers: ["X-Tenant": "green", "User-Agent": "replayer/2", "Authorization": "Bearer other"])
                #expect(green.0 == "green me")
                let blue = try await Self.send("GET", "https://api.example.com/me", headers: ["x-tenant": "blue", "Authorization": "Bearer x"])
                #expect(blue.0 == "blue me")
                let missing = await thrownError(URLError.self) { _ = try await Self.send("GET", "https://api.example.com/me", headers: ["X-Tenant": "blue"]) }
                #expect(missing != nil)
                let extra = await thrownError(URLError.self) {
                    _ = try await Self.send("GET", "https://api.example.com/me", headers: ["X-Tenant": "blue", "Authorization": "Bearer x", "X-Debug": "1"])
                }
                #expect(extra != nil)
            }
        }
        #expect(error?.problems.count == 2)
    }

    @Test("bodies can be left out of matching, and a custom matcher decides with the request and the recorded one")
    func customMatcher() async throws {
        let har = Self.har([
            ("POST", "https://api.example.com/rpc", [:], #"{"id":"a-1","method":"ping","ts":1}"#, "pong"),
            ("POST", "https://api.example.com/rpc", [:], #"{"id":"a-2","method":"sum","ts":2}"#, "sum"),
        ])
        @Sendable func method(_ request: RecordedRequest) -> String? {
            request.body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["method"] as? String
        }
        let rules = CassetteMatching.standard.comparingBodies(.ignored).matching("the same JSON-RPC method") { method($0) == method($1) }
        let error = await thrownError(StubVerificationError.self) {
            try await Self.replaying(har, matching: rules) { _ in
                let answer5 = try await Self.send("POST", "https://api.example.com/rpc", body: #"{"method":"sum","anything":true}"#).0
                #expect(answer5 == "sum")
                let answer6 = try await Self.send("POST", "https://api.example.com/rpc", body: #"{"method":"ping"}"#).0
                #expect(answer6 == "pong")
                let unknown = await thrownError(URLError.self) { _ = try await Self.send("POST", "https://api.example.com/rpc", body: #"{"method":"nope"}"#) }
                #expect(unknown?.localizedDescription.contains("the same JSON-RPC method") == true)
            }
        }
        #expect(error?.problems.count == 1)
    }

    @Test("a matching rule that cannot be used is refused before the body runs, naming the rule and why", arguments: [
        (CassetteMatching.standard.ignoringJSONFields(""), #"ignoringJSONFields("")"#, #"the path is empty; name a field, such as "id" or "params.cursor""#),
        (.standard.ignoringJSONFields("$."), #"ignoringJSONFields("$.")"#, #"the path is empty; name a field, such as "id" or "params.cursor""#),
        (.standard.ignoringJSONFields("params..id"), #"ignoringJSONFields("params..id")"#, #"a key of the path is empty; write keys joined by single dots, such as "params.cursor""#),
        (.standard.ignoringJSONFields("items[*].id"), #"ignoringJSONFields("items[*].id")"#, #"paths have no brackets: a path that meets an array applies to each element, so write "items.id" for the id of every item"#),
        (.standard.echoingJSONFields("items[*].id"), #"echoingJSONFields("items[*].id")"#, #"paths have no brackets: a path that meets an array applies to each element, so write "items.id" for the id of every item"#),
        (.standard.comparingHeaders(except: ""), #"comparingHeaders(except: "")"#, "a header field name is empty"),
    ])
    func unusableRules(matching: CassetteMatching, rule: String, reason: String) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("rules.har")
        try writeHAR(Self.har([]), to: file)
        let ran = Shared(false)
        let error = await thrownError(CassetteError.self) {
            try await withStubScope(cassette: file, matching: matching) { _ in ran.value = true }
        }
        #expect(!ran.value)
        #expect(error?.description == "URLStubs: the cassette matching rule \(rule) cannot be used: \(reason). Nothing was replayed or recorded.")
        let replayError = await thrownError(CassetteError.self) {
            try await withStubScope { scope in try await scope.replay(har: file, matching: matching) }
        }
        #expect(replayError?.description == error?.description)
    }

    @Test("the rules describe themselves for near-miss reports")
    func descriptions() {
        #expect(CassetteMatching.standard.description == "standard")
        #expect(CassetteMatching.jsonRPC.description == "ignoring JSON id, echoing JSON id")
        #expect(CassetteMatching.standard.comparingBodies(.ignored).comparingHeaders(except: "Date", "user-agent").matching("mine") { _, _ in true }.description
            == "any body, comparing headers except date, user-agent, mine")
    }

    @Test("by default header fields are not compared: an entry recorded with one header value answers a request with another, or none")
    func headersNotComparedByDefault() async throws {
        let har = Self.har([
            ("GET", "https://api.example.com/me", ["X-Tenant": "blue"], nil, "me 1"),
            ("GET", "https://api.example.com/me", ["X-Tenant": "blue"], nil, "me 2"),
        ])
        try await Self.replaying(har, matching: .standard) { _ in
            let green = try await Self.send("GET", "https://api.example.com/me", headers: ["X-Tenant": "green"]).0
            let none = try await Self.send("GET", "https://api.example.com/me").0
            #expect([green, none] == ["me 1", "me 2"])
        }
    }
}
