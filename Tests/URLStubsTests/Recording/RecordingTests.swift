#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// Passthrough, recording and replay against a real HTTP server on 127.0.0.1.
@Suite("Recording real traffic", .timeLimit(.minutes(1)))
struct RecordingTests {
    /// A server with a few routes: `/users/1` (JSON), `/bytes` (binary), `/count`
    /// (how many times it was asked), `/echo` (what the request carried), `/login`
    /// (sets a cookie and echoes the bearer token).
    static func server() throws -> LocalServer {
        let counter = Shared(0)
        return try LocalServer { request in
            switch request.path.split(separator: "?")[0] {
            case "/users/1":
                return ServedResponse(status: 200, headers: ["Content-Type": "application/json", "X-Served-By": "local"], body: Data(#"{"id":1,"name":"Ann"}"#.utf8))
            case "/bytes":
                return ServedResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: Data([0, 1, 2, 255, 254, 10, 13, 0]))
            case "/count":
                counter.value += 1
                return .text("call \(counter.value)")
            case "/echo":
                let text = "\(request.method) \(request.path) \(request.header("X-Trace") ?? "-") \(String(decoding: request.body, as: UTF8.self))"
                return ServedResponse(status: 202, headers: ["Content-Type": "text/plain"], body: Data(text.utf8))
            case "/login":
                let token = request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
                return ServedResponse(status: 200, headers: ["Set-Cookie": "sid=c00k13-v4lu3-0001; HttpOnly", "Content-Type": "application/json"], body: Data(#"{"welcome":"you used \#(token)"}"#.utf8))
            default:
                return .text("no such route", status: 404)
            }
        }
    }

    @Test("a passthrough sends the request (method, headers, body) to the network and delivers the real status, headers and body; other requests still fail")
    func passthrough() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.passThrough(.host("127.0.0.1"))
                var request = URLRequest(url: server.url("/echo?x=1"))
                request.httpMethod = "PUT"
                request.setValue("trace-7", forHTTPHeaderField: "X-Trace")
                request.httpBody = Data("payload".utf8)
                let (data, response) = try await URLSession.stubbed.data(for: request)
                let http = try #require(response as? HTTPURLResponse)
                #expect(http.statusCode == 202)
                #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/plain")
                #expect(String(decoding: data, as: UTF8.self) == "PUT /echo?x=1 trace-7 payload")
                #expect(await scope.exchanges.map(\.source) == [.network])
                let elsewhere = await thrownError(URLError.self) { _ = try await getText("https://elsewhere.example.com/") }
                #expect(elsewhere?.code == .resourceUnavailable)
            }
        }
        // The only problem is the request no passthrough or stub matched.
        #expect(error?.problems.count == 1)
        #expect(error?.problems.first?.message.hasPrefix("URLStubs: no stub matches GET https://elsewhere.example.com/ in scope #") == true)
        #expect(server.requests.map(\.path) == ["/echo?x=1"])
    }

    @Test("what .record wrote replays with byte-identical bodies, statuses and headers, with the server gone")
    func recordThenReplay() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("users.har")
        let server = try Self.server()
        let paths = ["/users/1", "/bytes", "/missing"]
        var recorded: [(Int, String?, Data)] = []
        try await withStubScope(cassette: file, mode: .record) { _ in
            for path in paths {
                let (data, response) = try await URLSession.stubbed.data(from: server.url(path))
                let http = try #require(response as? HTTPURLResponse)
                recorded.append((http.statusCode, http.value(forHTTPHeaderField: "X-Served-By"), data))
            }
        }
        server.stop()
        #expect(server.requests.count == 3)
        var replayed: [(Int, String?, Data)] = []
        try await withStubScope(cassette: file) { _ in
            for path in paths {
                let (data, response) = try await URLSession.stubbed.data(from: server.url(path))
                let http = try #require(response as? HTTPURLResponse)
                replayed.append((http.statusCode, http.value(forHTTPHeaderField: "X-Served-By"), data))
            }
        }
        #expect(replayed.map(\.0) == [200, 200, 404])
        #expect(replayed.map(\.0) == recorded.map(\.0))
        #expect(replayed.map(\.1) == recorded.map(\.1))
        #expect(replayed.map(\.2) == recorded.map(\.2))
        #expect(replayed[1].2 == Data([0, 1, 2, 255, 254, 10, 13, 0]))
    }

    @Test("re-recording the same exchanges writes the same bytes: no timestamps, stable order")
    func deterministicOutput() async throws {
        let directory = try TemporaryDirectory()
        let server = try Self.server()
        defer { server.stop() }
        var files: [Data] = []
        for name in ["a.har", "b.har"] {
            try await withStubScope(cassette: directory.file(name), mode: .record) { _ in
                _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
                _ = try await URLSession.stubbed.data(from: server.url("/bytes"))
            }
            files.append(try Data(contentsOf: directory.file(name)))
        }
        #expect(files[0] == files[1])
        #expect(!String(decoding: files[0], as: UTF8.self).contains("2026"))
    }

    @Test(".recordMissing replays what the cassette has and records only the rest, adding it to the file")
    func recordMissing() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("mixed.har")
        let server = try Self.server()
        defer { server.stop() }
        try await withStubScope(cassette: file, mode: .record) { _ in
            _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
        }
        try await withStubScope(cassette: file, mode: .recordMissing) { scope in
            _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
            _ = try await URLSession.stubbed.data(from: server.url("/bytes"))
            #expect(await scope.exchanges.map(\.source) == [.cassette(file), .network])
        }
        #expect(server.requests.map(\.path) == ["/users/1", "/bytes"])
        let urls = try Self.entryURLs(in: file)
        #expect(urls == [server.url("/users/1").absoluteString, server.url("/bytes").absoluteString])
    }

    @Test(".recordMissing with a pattern rule adds requests the rule has nothing to remove from to a file it redacted before; a new file with nothing for the rule is still refused")
    func recordMissingWithAPatternRule() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("pattern.har")
        let server = try Self.server()
        defer { server.stop() }
        let redaction = Redaction.standard.adding(.pattern("A[n]+"))
        try await withStubScope(cassette: file, mode: .record, redaction: redaction) { _ in
            _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
        }
        try await withStubScope(cassette: file, mode: .recordMissing, redaction: redaction) { _ in
            _ = try await URLSession.stubbed.data(from: server.url("/count"))
        }
        let urls = try Self.entryURLs(in: file)
        #expect(urls == [server.url("/users/1").absoluteString, server.url("/count").absoluteString])
        // A recording with nothing for the rule, and nothing redacted before: refused.
        let other = directory.file("other.har")
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope(cassette: other, mode: .recordMissing, redaction: redaction) { _ in
                _ = try await URLSession.stubbed.data(from: server.url("/count"))
            }
        }
        #expect(error?.problems.first?.message.contains("the redaction rule pattern A[n]+ removed nothing in its 1 entry") == true)
        #expect(!FileManager.default.fileExists(atPath: other.path))
    }

    @Test(".recordMissing still refuses a rule by name that removed nothing (a typo), though the file's entries hold placeholders of other rules")
    func recordMissingRefusesATypoByName() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("typo-rule.har")
        let server = try Self.server()
        defer { server.stop() }
        var request = URLRequest(url: server.url("/users/1"))
        request.setValue("Bearer first-T0ken", forHTTPHeaderField: "Authorization")
        try await withStubScope(cassette: file, mode: .record) { _ in
            _ = try await URLSession.stubbed.data(for: request)
        }
        let before = try Data(contentsOf: file)
        var tenant = URLRequest(url: server.url("/count"))
        tenant.setValue("Typo-Leak-Key-123", forHTTPHeaderField: "X-Tenant-Ref")
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope(cassette: file, mode: .recordMissing, redaction: .standard.adding(.header("X-Tenant-Rfe"))) { _ in
                _ = try await URLSession.stubbed.data(for: tenant)
            }
        }
        #expect(error?.problems.first?.message.contains("the redaction rule header X-Tenant-Rfe removed nothing") == true)
        #expect(try Data(contentsOf: file) == before)
    }

    @Test(".recordMissing over a hand-edited file without log.entries (misspelled) refuses it, sends nothing, and leaves the file as it was")
    func recordMissingKeepsAMisspelledFile() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("typo.har")
        let server = try Self.server()
        defer { server.stop() }
        let text = #"{"log": {"entires": [{"request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200, "content": {"text": "hand-written"}}}]}}"#
        try writeHAR(text, to: file)
        let error = await thrownError(CassetteError.self) {
            try await withStubScope(cassette: file, mode: .recordMissing) { _ in
                _ = try? await URLSession.stubbed.data(from: server.url("/users/1"))
            }
        }
        #expect(error?.description == "URLStubs: the cassette at \(file.path) cannot be read as a HAR file: log.entries is missing.")
        #expect(server.requests.isEmpty)
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
    }

    @Test("a replayed cassette sends nothing to the network but what a passthrough of the scope or of a scope around it lets through")
    func replayWithAPassthrough() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("with-passthrough.har")
        let server = try Self.server()
        defer { server.stop() }
        try await withStubScope(cassette: file, mode: .record) { _ in
            _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
        }
        try await withStubScope { outer in
            await outer.passThrough(.get(server.url("/count").absoluteString))
            let error = await thrownError(StubVerificationError.self) {
                try await withStubScope(cassette: file) { _ in
                    _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
                    #expect(try await getText(server.url("/count").absoluteString) == "call 1")
                    _ = try? await URLSession.stubbed.data(from: server.url("/bytes"))
                }
            }
            #expect(error?.problems.count == 1) // The request for /bytes, which nothing answered.
        }
        #expect(server.requests.map(\.path) == ["/users/1", "/count"])
    }

    @Test("strict replay of a request the cassette lacks fails and sends nothing to the server")
    func strictReplay() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("strict.har")
        let server = try Self.server()
        defer { server.stop() }
        try await withStubScope(cassette: file, mode: .record) { _ in
            _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
        }
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope(cassette: file) { _ in
                _ = try? await URLSession.stubbed.data(from: server.url("/users/2"))
            }
        }
        #expect(error?.problems.first?.message.contains("- path: expected /users/1, got /users/2") == true)
        #expect(server.requests.map(\.path) == ["/users/1"])
    }

    @Test("repeated identical requests are recorded in order and replayed in that order")
    func orderedReplay() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("count.har")
        let server = try Self.server()
        try await withStubScope(cassette: file, mode: .record) { _ in
            for _ in 1...3 {
                _ = try await URLSession.stubbed.data(from: server.url("/count"))
            }
        }
        server.stop()
        try await withStubScope(cassette: file) { _ in
            var answers: [String] = []
            for _ in 1...3 {
                answers.append(String(decoding: try await URLSession.stubbed.data(from: server.url("/count")).0, as: UTF8.self))
            }
            #expect(answers == ["call 1", "call 2", "call 3"])
        }
    }

    @Test("a server that sets a cookie and echoes the token in its body: the cassette is refused and not written")
    func echoedTokenIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("login.har")
        let server = try Self.server()
        defer { server.stop() }
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope(cassette: file, mode: .record) { _ in
                var request = URLRequest(url: server.url("/login"))
                request.setValue("Bearer tok-ABCDEF-123456", forHTTPHeaderField: "Authorization")
                let (data, _) = try await URLSession.stubbed.data(for: request)
                // The code under test still got the real answer.
                #expect(String(decoding: data, as: UTF8.self) == #"{"welcome":"you used tok-ABCDEF-123456"}"#)
            }
        }
        let problem = try #require(error?.problems.first)
        #expect(problem.message.hasPrefix("URLStubs: did not write the cassette \(file.path): a secret survived redaction in entry 1 (GET \(server.url("/login").absoluteString)), response body: "))
        #expect(!problem.message.contains("tok-ABCDEF"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("the cookie the server set is redacted in a cassette that is written")
    func cookieIsRedacted() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("cookie.har")
        let server = try Self.server()
        defer { server.stop() }
        try await withStubScope(cassette: file, mode: .record) { _ in
            _ = try await URLSession.stubbed.data(from: server.url("/login"))
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("c00k13"))
        #expect(text.contains(#""name" : "Set-Cookie","#) && text.contains(#""value" : "URLSTUBS-REDACTED""#))
    }

    @Test("parallel scopes record to their own files, each with only its own exchanges")
    func parallelRecording() async throws {
        let directory = try TemporaryDirectory()
        let base = directory.url
        let server = try Self.server()
        defer { server.stop() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await withStubScope(cassette: base.appendingPathComponent("case-\(index).har"), mode: .record) { _ in
                        _ = try await URLSession.stubbed.data(from: server.url("/echo?case=\(index)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        for index in 0..<8 {
            #expect(try Self.entryURLs(in: directory.file("case-\(index).har")) == [server.url("/echo?case=\(index)").absoluteString])
        }
    }

    @Test("two scopes recording into one file at once: the second is refused")
    func oneRecorderPerFile() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("shared.har")
        try await withStubScope(cassette: file, mode: .record) { _ in
            let error = await thrownError(CassetteError.self) {
                try await withStubScope(cassette: file, mode: .record) { _ in }
            }
            #expect(error?.description == "URLStubs: another scope is recording into the cassette \(file.path) right now; give each test case a cassette of its own (on a suite trait, omit the cassette's name).")
        }
    }

    @Test("a drift check reports a stub whose JSON has a key the server no longer sends, at the stub's line; the test still gets the stub's answer")
    func drift() async throws {
        let server = try Self.server()
        defer { server.stop() }
        var line = 0
        var stub: Stub?
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.startCheckingForDrift()
                line = #line + 1
                stub = await scope.stub(.get(server.url("/users/1")), with: .json(#"{"id": 1, "name": "Ann", "email": "ann@example.com"}"#))
                let (data, _) = try await URLSession.stubbed.data(from: server.url("/users/1"))
                #expect(String(decoding: data, as: UTF8.self) == #"{"id": 1, "name": "Ann", "email": "ann@example.com"}"#)
            }
        }
        let problem = try #require(error?.problems.first)
        #expect(error?.problems.count == 1)
        #expect(problem.location?.line == line)
        let url = server.url("/users/1").absoluteString
        #expect(problem.message == """
            URLStubs: the stub GET \(url) (registered at URLStubsTests/RecordingTests.swift:\(line)) answers GET \(url) differently from the real server (the test received the stub's answer):
            - JSON: $.email is in the stub's answer but missing from the server's
            """)
        guard case let .drift(drifted, differences) = problem.kind else {
            Issue.record("expected a drift, got \(problem.kind)")
            return
        }
        #expect(drifted == stub)
        #expect(differences == ["JSON: $.email is in the stub's answer but missing from the server's"])
    }

    @Test("a drift check of a stub that matches the server reports nothing")
    func noDrift() async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await withStubScope { scope in
            await scope.startCheckingForDrift()
            await scope.stub(.get(server.url("/users/1")), with: .json(#"{"id": 7, "name": "Someone else"}"#))
            _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
        }
        #expect(server.requests.count == 1)
    }

    /// The request URLs of the entries of the HAR file at `file`.
    static func entryURLs(in file: URL) throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let entries = (json?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        return entries.compactMap { ($0["request"] as? [String: Any])?["url"] as? String }
    }
}
