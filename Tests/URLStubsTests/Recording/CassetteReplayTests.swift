#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// Replaying HAR files: cassettes in `.replay` mode and `scope.replay(har:)`.
@Suite("Replaying HAR cassettes", .timeLimit(.minutes(1)))
struct CassetteReplayTests {
    /// A cassette with three answers to the same GET, as a recording writes it.
    static let threeAnswers = #"""
    {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
      {"request": {"method": "GET", "url": "https://api.example.com/counter", "headers": []},
       "response": {"status": 200, "headers": [], "content": {"mimeType": "text/plain", "text": "one"}}},
      {"request": {"method": "GET", "url": "https://api.example.com/counter", "headers": []},
       "response": {"status": 200, "headers": [], "content": {"mimeType": "text/plain", "text": "two"}}},
      {"request": {"method": "GET", "url": "https://api.example.com/counter", "headers": []},
       "response": {"status": 503, "headers": [{"name": "Retry-After", "value": "1"}], "content": {"mimeType": "text/plain", "text": "three"}}}
    ]}}
    """#

    @Test("repeated identical requests replay their entries in order, and the request after the last one fails naming the cassette")
    func orderedReplay() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("counter.har")
        try writeHAR(Self.threeAnswers, to: file)
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope(cassette: file) { _ in
                var answers: [String] = []
                for _ in 1...3 {
                    let (data, response) = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/counter")!)
                    answers.append("\(HTTPURLResponse.status(of: response)) \(String(decoding: data, as: UTF8.self))")
                }
                #expect(answers == ["200 one", "200 two", "503 three"])
                let fourth = await thrownError(URLError.self) { _ = try await getText("https://api.example.com/counter") }
                #expect(fourth?.localizedDescription == "URLStubs: GET https://api.example.com/counter was refused: the stub GET https://api.example.com/counter [no query, no body] (from cassette counter.har) allows 3 requests and this is the 4th; no other stub matches it.")
            }
        }
        // The 4th request is the only problem: replay is strict about count too.
        #expect(error?.problems.map(\.message) == [
            "The stub GET https://api.example.com/counter [no query, no body] (from cassette counter.har) expected at most 3 requests but was requested 4 times.",
        ])
    }

    @Test("a request the cassette has no entry for fails with the nearest entries and how to record it, and nothing reaches the network")
    func unknownRequest() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("browser.har")
        try writeHAR(browserExportHAR, to: file)
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope(cassette: file) { _ in
                _ = try? await getText("https://api.example.com/items?page=2&sort=name")
            }
        }
        let message = try #require(error?.problems.first?.message)
        #expect(message.hasPrefix("URLStubs: no stub matches GET https://api.example.com/items?page=2&sort=name in scope #"))
        #expect(message.contains("1. GET https://api.example.com/items [query page=1&sort=name, no body] (registered at "))
        #expect(message.contains("- query: expected page=1&sort=name, got page=2&sort=name"))
        #expect(message.hasSuffix("\nThe cassette \(file.path) has no entry left for it (replay mode sends nothing to the network); to record it, run with URLSTUBS_RECORD=missing."))
    }

    @Test("a browser's HAR export replays: query items in any order, base64 bodies, and a redacted JSON field that matches any value")
    func browserExport() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("browser.har")
        try writeHAR(browserExportHAR, to: file)
        try await withStubScope { scope in
            try await scope.replay(har: file)
            let page = try await getText("https://api.example.com/items?sort=name&page=1")
            #expect(page == #"{"page": 1}"#)
            var post = URLRequest(url: URL(string: "https://api.example.com/items")!)
            post.httpMethod = "POST"
            post.httpBody = Data(#"{"token": "real-secret-value", "name": "pen"}"#.utf8)
            let (data, response) = try await URLSession.stubbed.data(for: post)
            #expect(HTTPURLResponse.status(of: response) == 201)
            #expect(String(decoding: data, as: UTF8.self) == #"{"id": 7}"#)
            let exchanges = await scope.exchanges
            #expect(exchanges.map(\.source) == [.cassette(file), .cassette(file)])
        }
    }

    @Test("replay mode without the file throws before the body runs, saying how to record it")
    func missingFile() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("absent.har")
        let ran = Shared(false)
        let error = await thrownError(CassetteError.self) {
            try await withStubScope(cassette: file) { _ in ran.value = true }
        }
        #expect(!ran.value)
        #expect(error?.description == "URLStubs: there is no cassette at \(file.path). Replay needs one: record it first by running the test with URLSTUBS_RECORD=missing (or mode: .recordMissing) against the real server.")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("a HAR with a response field given twice (a browser's Set-Cookie per cookie) replays both, joined as Foundation joins them")
    func repeatedResponseFields() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("cookies.har")
        try writeHAR(#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://api.example.com/login"}, "response": {"status": 200, "headers": [{"name": "Set-Cookie", "value": "a=1"}, {"name": "X-One", "value": "x"}, {"name": "set-cookie", "value": "b=2"}]}}]}}"#, to: file)
        try await withStubScope { scope in
            try await scope.replay(har: file)
            let (_, response) = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/login")!)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.value(forHTTPHeaderField: "Set-Cookie") == "a=1, b=2")
            #expect(http.value(forHTTPHeaderField: "X-One") == "x")
        }
    }

    @Test("a path segment a pattern rule cut into replays for any segment its placeholder can stand in, and only those")
    func partlyRedactedPathSegment() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("statements.har")
        try writeHAR(#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://api.example.com/statements/URLSTUBS-REDACTED.pdf/raw"}, "response": {"status": 200, "content": {"text": "pdf"}}}]}}"#, to: file)
        do {
            try await withStubScope { scope in
                try await scope.replay(har: file)
                #expect(await bodyTextOrError(URLRequest(url: URL(string: "https://api.example.com/statements/ACCT-1234.pdf/raw")!)) == "pdf")
                #expect(await bodyTextOrError(URLRequest(url: URL(string: "https://api.example.com/statements/ACCT-1234.txt/raw")!)) == "error \(URLError.Code.resourceUnavailable.rawValue)")
                #expect(await bodyTextOrError(URLRequest(url: URL(string: "https://api.example.com/statements/ACCT-1234.pdf")!)) == "error \(URLError.Code.resourceUnavailable.rawValue)")
            }
        } catch is StubVerificationError {}
        // Recorded with escapes not in normal form, as a client spelled them.
        let escaped = directory.file("escaped.har")
        try writeHAR(#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://api.example.com/files/statement%2D2024%5FURLSTUBS-REDACTED%2Epdf"}, "response": {"status": 200, "content": {"text": "pdf"}}}]}}"#, to: escaped)
        try await withStubScope { scope in
            try await scope.replay(har: escaped)
            #expect(await bodyTextOrError(URLRequest(url: URL(string: "https://api.example.com/files/statement-2024_ACCT1234.pdf")!)) == "pdf")
        }
    }

    @Test("a redacted query value replays for any value but one with a raw ; (an item more, to a server that splits at ;), and for one with an encoded ;")
    func redactedQueryValueAndSemicolons() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("token.har")
        try writeHAR(#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://api.example.com/feed?token=URLSTUBS-REDACTED&page=2"}, "response": {"status": 200, "content": {"text": "feed"}}}]}}"#, to: file)
        /// What `url` gets from the cassette, in a scope of its own (an entry answers once).
        func answer(_ url: String) async throws -> String {
            do {
                return try await withStubScope { scope in
                    try await scope.replay(har: file)
                    return await bodyTextOrError(URLRequest(url: URL(string: url)!))
                }
            } catch is StubVerificationError {
                return "unmatched"
            }
        }
        #expect(try await answer("https://api.example.com/feed?page=2&token=abc") == "feed")
        #expect(try await answer("https://api.example.com/feed?token=a%3Bb&page=2") == "feed")
        #expect(try await answer("https://api.example.com/feed?token=abc;admin=1&page=2") == "unmatched")
        #expect(try await answer("https://api.example.com/feed?token=abc&page=2;admin=1") == "unmatched")
    }

    @Test("JSON bodies compare as JSON, where true is not 1, nor 1 true")
    func jsonBooleansAreNotNumbers() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("booleans.har")
        try writeHAR(#"{"log": {"entries": [{"request": {"method": "POST", "url": "https://api.example.com/users", "postData": {"mimeType": "application/json", "text": "{\"admin\": true, \"n\": 1}"}}, "response": {"status": 201}}]}}"#, to: file)
        func post(_ body: String) async -> Int? {
            var request = URLRequest(url: URL(string: "https://api.example.com/users")!)
            request.httpMethod = "POST"
            request.httpBody = Data(body.utf8)
            return (try? await URLSession.stubbed.data(for: request)).map { HTTPURLResponse.status(of: $0.1) }
        }
        do {
            try await withStubScope { scope in
                try await scope.replay(har: file)
                #expect(await post(#"{"admin": 1, "n": 1}"#) == nil)
                #expect(await post(#"{"admin": true, "n": true}"#) == nil)
                #expect(await post(#"{"n": 1.0, "admin": true}"#) == 201)
            }
        } catch is StubVerificationError {}
    }

    @Test("a file that is not HAR is refused with what is wrong in it", arguments: [
        ("not json", "it is not JSON"),
        (#"{"log": {"entires": [{"request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200}}]}}"#, "log.entries is missing"),
        (#"{"log": {}}"#, "log.entries is missing"),
        (#"{"log": {"entries": [{"request": {"url": "https://a.example"}, "response": {"status": 200}}]}}"#, "log.entries[0].request.method is missing"),
        // Invalid base64 once replayed silently as an empty 200 body.
        (#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200, "content": {"text": "not*base64!", "encoding": "base64"}}}]}}"#,
         #"log.entries[0].response.content is marked "encoding": "base64" but its text is not base64"#),
        (#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200, "content": {"text": "b2s=", "encoding": "base64"}}}, {"request": {"method": "POST", "url": "https://a.example/", "postData": {"text": "YW%j", "encoding": "BASE64"}}, "response": {"status": 200}}]}}"#,
         #"log.entries[1].request.postData is marked "encoding": "base64" but its text is not base64"#),
    ])
    func unreadable(text: String, reason: String) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("bad.har")
        try writeHAR(text, to: file)
        let error = await thrownError(CassetteError.self) {
            try await withStubScope { scope in try await scope.replay(har: file) }
        }
        #expect(error?.description == "URLStubs: the cassette at \(file.path) cannot be read as a HAR file: \(reason).")
    }

    @Test("base64 bodies split over lines replay byte for byte")
    func base64WithLineBreaks() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("wrapped.har")
        try writeHAR(#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://api.example.com/b"}, "response": {"status": 200, "content": {"text": "AAEC\n/w==", "encoding": "base64"}}}]}}"#, to: file)
        try await withStubScope(cassette: file) { _ in
            let (data, _) = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/b")!)
            #expect(data == Data([0, 1, 2, 255]))
        }
    }

    @Test("stubs registered in the body win over the cassette's entries")
    func stubsWin() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("counter.har")
        try writeHAR(Self.threeAnswers, to: file)
        try await withStubScope(cassette: file) { scope in
            let stub = await scope.stub(.get("https://api.example.com/counter"), with: .text("mine"))
            let text = try await getText("https://api.example.com/counter")
            #expect(text == "mine")
            let exchanges = await scope.exchanges
            #expect(exchanges.first?.source == .stub(stub.location))
        }
    }
}
