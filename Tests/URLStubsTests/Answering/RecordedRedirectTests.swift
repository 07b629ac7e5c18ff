#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Redirects of real traffic (passed through or recorded) and of replayed
/// cassettes: every hop is an exchange and an entry of its own, and the client
/// ends up where Foundation itself would.
@Suite("Redirects of real and recorded traffic", .timeLimit(.minutes(1)))
struct RecordedRedirectTests {
    /// `/start` answers 302 to `/middle`, which answers 301 to `/final?x=1`, which
    /// answers 200 "done"; each redirect has a small body of its own.
    static func redirectingServer() throws -> LocalServer {
        try LocalServer { request in
            switch request.path {
            case "/start":
                ServedResponse(status: 302, headers: ["Location": "/middle", "Content-Type": "text/plain"], body: Data("to middle".utf8))
            case "/middle":
                ServedResponse(status: 301, headers: ["Location": "/final?x=1", "Content-Type": "text/plain"], body: Data("to final".utf8))
            case "/final?x=1":
                .text("done")
            default:
                .text("no such route", status: 404)
            }
        }
    }

    /// What a plain session (no stubs) reports for `url`: the status, final URL and
    /// body Foundation itself delivers.
    static func foundationReport(_ url: URL) async throws -> (Int, URL?, String) {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: url)
        return (HTTPURLResponse.status(of: response), response.url, String(decoding: data, as: UTF8.self))
    }

    /// The exchanges of one trip from `/start`: a redirect's own body is what the
    /// session hands over, and Foundation on Linux hands over none (it has 9 and 8
    /// bytes on the wire).
    static func hops(_ server: LocalServer) -> [String] {
        #if canImport(FoundationNetworking)
        let bodies = ["0 bytes", "0 bytes"]
        #else
        let bodies = ["9 bytes", "8 bytes"]
        #endif
        return [
            "GET \(server.url("/start")) -> 302 (\(bodies[0]))",
            "GET \(server.url("/middle")) -> 301 (\(bodies[1]))",
            "GET \(server.url("/final?x=1")) -> 200 (4 bytes)",
        ]
    }

    /// The statuses and `redirectURL`s of the entries of the HAR file at `file`.
    static func entries(of file: URL) throws -> [String] {
        let har = try HARFile.decode(Data(contentsOf: file))
        return har.log.entries.map { "\($0.request.method) \($0.request.url) -> \($0.response.status)" + ($0.response.redirectURL.isEmpty ? "" : " to \($0.response.redirectURL)") }
    }

    @Test("a passed-through redirect is delivered hop by hop, each hop an exchange from the network, and the client gets the final URL Foundation reports")
    func passedThrough() async throws {
        let server = try Self.redirectingServer()
        defer { server.stop() }
        let foundation = try await Self.foundationReport(server.url("/start"))
        try await withStubScope { scope in
            await scope.passThrough(.host("127.0.0.1"))
            let (data, response) = try await URLSession.stubbed.data(from: server.url("/start"))
            #expect(HTTPURLResponse.status(of: response) == foundation.0)
            #expect(response.url == foundation.1)
            #expect(response.url == server.url("/final?x=1"))
            #expect(String(decoding: data, as: UTF8.self) == foundation.2)
            let exchanges = await scope.exchanges
            #expect(exchanges.map(\.description) == Self.hops(server))
            #expect(exchanges.map(\.source) == [.network, .network, .network])
        }
        // Foundation's own run, then one request per hop from the scope.
        #expect(server.requests.map(\.path) == ["/start", "/middle", "/final?x=1", "/start", "/middle", "/final?x=1"])
    }

    @Test("a passthrough lets through only the hops it matches: a hop nothing matches fails, and the server never receives it")
    func passThroughOnlyWhatMatches() async throws {
        let server = try Self.redirectingServer()
        defer { server.stop() }
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.passThrough(.get(server.url("/start")))
                let failure = await thrownError(URLError.self) { _ = try await URLSession.stubbed.data(from: server.url("/start")) }
                #expect(failure?.localizedDescription.hasPrefix("URLStubs: no stub matches GET \(server.url("/middle")) in scope") == true)
            }
        }
        #expect(error?.problems.count == 1)
        #expect(server.requests.map(\.path) == ["/start"])
    }

    @Test("a recorded redirect writes one entry per hop and replays them as hops with the server gone, ending at the final URL")
    func recordedAndReplayed() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("redirects.har")
        let server = try Self.redirectingServer()
        let foundation = try await Self.foundationReport(server.url("/start"))
        try await withStubScope(cassette: file, mode: .record) { _ in
            let (data, response) = try await URLSession.stubbed.data(from: server.url("/start"))
            #expect(response.url == foundation.1)
            #expect(String(decoding: data, as: UTF8.self) == "done")
        }
        server.stop()
        #expect(try Self.entries(of: file) == [
            "GET \(server.url("/start")) -> 302 to /middle",
            "GET \(server.url("/middle")) -> 301 to /final?x=1",
            "GET \(server.url("/final?x=1")) -> 200",
        ])
        try await withStubScope(cassette: file, mode: .replay) { scope in
            let (data, response) = try await URLSession.stubbed.data(from: server.url("/start"))
            #expect(HTTPURLResponse.status(of: response) == 200)
            #expect(response.url == foundation.1)
            #expect(String(decoding: data, as: UTF8.self) == "done")
            let exchanges = await scope.exchanges
            #expect(exchanges.map(\.description) == Self.hops(server))
            #expect(exchanges.map(\.source) == [.cassette(file), .cassette(file), .cassette(file)])
        }
    }

    @Test("a browser's HAR export with one entry per hop replays as hops")
    func browserHops() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("hops.har")
        try writeHAR(#"""
        {"log": {"entries": [
          {"request": {"method": "GET", "url": "https://www.example.com/login"},
           "response": {"status": 302, "headers": [{"name": "location", "value": "https://accounts.example.com/form"}], "redirectURL": "https://accounts.example.com/form"}},
          {"request": {"method": "GET", "url": "https://accounts.example.com/form"},
           "response": {"status": 200, "content": {"text": "form"}}}
        ]}}
        """#, to: file)
        try await withStubScope(cassette: file) { _ in
            let (data, response) = try await URLSession.stubbed.data(from: URL(string: "https://www.example.com/login")!)
            #expect(response.url?.absoluteString == "https://accounts.example.com/form")
            #expect(String(decoding: data, as: UTF8.self) == "form")
        }
    }

    /// A request carrying every kind of credential, and a field that is not one.
    static func credentialed(_ url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.setValue("Bearer s3cr3t-t0k3n", forHTTPHeaderField: "Authorization")
        request.setValue("Basic cHJveHk6cHc=", forHTTPHeaderField: "Proxy-Authorization")
        request.setValue("sid=c00k13", forHTTPHeaderField: "Cookie")
        request.setValue("trace-1", forHTTPHeaderField: "X-Trace")
        return request
    }

    static let credentialNames = ["Authorization", "Proxy-Authorization", "Cookie"]

    @Test("a stubbed redirect to another origin drops Authorization, Proxy-Authorization and Cookie, and keeps other fields", arguments: [
        "https://cdn.example.net/file",      // another host
        "http://api.example.com/file",       // another scheme
        "https://api.example.com:8443/file", // another port
        "https://API.example.com.evil.example/file",
    ])
    func stubbedCrossOrigin(location: String) async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/file"), with: .redirect(to: location, status: 307))
            await scope.stub(.get(location), with: .text("moved"))
            _ = try await URLSession.stubbed.data(for: Self.credentialed(URL(string: "https://api.example.com/file")!))
            let requests = await scope.requests
            #expect(requests.count == 2)
            #expect(Self.credentialNames.map { requests[0].header($0) != nil } == [true, true, true])
            #expect(Self.credentialNames.map { requests[1].header($0) } == [nil, nil, nil])
            #expect(requests[1].header("X-Trace") == "trace-1")
        }
    }

    @Test("a stubbed redirect on the same origin keeps the credentials (host case and default port do not make another origin)", arguments: [
        "/other",
        "https://API.EXAMPLE.COM/other",
        "https://api.example.com:443/other",
    ])
    func stubbedSameOrigin(location: String) async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/file"), with: .redirect(to: location))
            await scope.stub(.get("/other"), with: .text("moved"))
            _ = try await URLSession.stubbed.data(for: Self.credentialed(URL(string: "https://api.example.com/file")!))
            let hop = try #require(await scope.requests.last)
            #expect(Self.credentialNames.map { hop.header($0) } == ["Bearer s3cr3t-t0k3n", "Basic cHJveHk6cHc=", "sid=c00k13"])
        }
    }

    @Test("a passed-through redirect to another origin reaches it without the credentials: the second server receives none, over real sockets")
    func passedThroughCrossOrigin() async throws {
        let target = try LocalServer { _ in .text("landed") }
        defer { target.stop() }
        let origin = try LocalServer { _ in
            ServedResponse(status: 302, headers: ["Location": target.url("/landing").absoluteString])
        }
        defer { origin.stop() }
        try await withStubScope { scope in
            await scope.passThrough(.host("127.0.0.1"))
            let (data, response) = try await URLSession.stubbed.data(for: Self.credentialed(origin.url("/go")))
            #expect(String(decoding: data, as: UTF8.self) == "landed")
            #expect(response.url == target.url("/landing"))
        }
        let sent = try #require(origin.requests.first)
        #expect(Self.credentialNames.map { sent.header($0) } == ["Bearer s3cr3t-t0k3n", "Basic cHJveHk6cHc=", "sid=c00k13"])
        let received = try #require(target.requests.first)
        #expect(target.requests.count == 1)
        #expect(Self.credentialNames.map { received.header($0) } == [nil, nil, nil])
        #expect(received.header("X-Trace") == "trace-1")
        // Nothing credential-like anywhere in what the second server received.
        let wire = received.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        #expect(!wire.contains("s3cr3t") && !wire.contains("cHJveHk6cHc") && !wire.contains("c00k13"))
    }

    #if canImport(FoundationNetworking)
    @Test("Foundation on Linux itself forwards Authorization, Proxy-Authorization and Cookie to another origin (documented in Replay.md)")
    func linuxFoundationForwardsCredentials() async throws {
        let target = try LocalServer { _ in .text("landed") }
        defer { target.stop() }
        let origin = try LocalServer { _ in
            ServedResponse(status: 302, headers: ["Location": target.url("/landing").absoluteString])
        }
        defer { origin.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        _ = try await session.data(for: Self.credentialed(origin.url("/go")))
        let received = try #require(target.requests.first)
        #expect(Self.credentialNames.map { received.header($0) } == ["Bearer s3cr3t-t0k3n", "Basic cHJveHk6cHc=", "sid=c00k13"])
    }
    #endif
}
