#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) import URLStubs

/// A session with the default configuration: no URL protocol of URLStubs, only
/// real HTTP over the loopback interface.
func plainSession() -> URLSession {
    let configuration = URLSessionConfiguration.default
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
}

@Suite("Served scopes: answered over real HTTP", .timeLimit(.minutes(1)))
struct ServedScopeTests {
    @Test("a plain URLSession (default configuration) gets the stub's status, headers and body from the served scope")
    func plainSessionIsAnswered() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("/users/1"), with: .json(#"{"id":1}"#, headers: ["X-Trace": "abc"]))
            let server = try await scope.serve()
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
            let (data, response) = try await plainSession().data(from: server.baseURL.appendingPathComponent("users/1"))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.value(forHTTPHeaderField: "X-Trace") == "abc")
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(String(decoding: data, as: UTF8.self) == #"{"id":1}"#)
            let logged = await scope.requests
            #expect(logged.map(\.description) == ["GET http://127.0.0.1:\(server.port)/users/1"])
        }
    }

    @Test("standing in for an origin, the scope sees the request at that origin, so stubs written for the real service match")
    func standsInForOrigin() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/users/2?full=1"), with: .text("Ada"))
            let server = try await scope.serve(as: URL(string: "https://api.example.com")!)
            let (data, _) = try await plainSession().data(from: URL(string: "\(server.baseURL)/users/2?full=1")!)
            #expect(String(decoding: data, as: UTF8.self) == "Ada")
            #expect(await scope.requests.map(\.description) == ["GET https://api.example.com/users/2?full=1"])
        }
    }

    @Test("a POST body, sent with Content-Length, is seen by body conditions and the request log")
    func postBodyIsSeen() async throws {
        try await withStubScope { scope in
            await scope.stub(.post("/users").body(#"{"name":"Ada"}"#), with: .status(201))
            let server = try await scope.serve()
            var request = URLRequest(url: server.baseURL.appendingPathComponent("users"))
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"name":"Ada"}"#.utf8)
            let (_, response) = try await plainSession().data(for: request)
            #expect(HTTPURLResponse.status(of: response) == 201)
            #expect(await scope.requests.first?.body == Data(#"{"name":"Ada"}"#.utf8))
        }
    }

    @Test("an unmatched request gets 599, the near-miss report as its body and X-URLStubs-Failure, and is a problem of the scope")
    func unmatchedRequest() async throws {
        let outcome = await StubScope.withNewScope(name: "served", location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)) { scope in
            await scope.stub(.get("/users/1"), with: .text("one"))
            let server = try await scope.serve()
            let (data, response) = try await plainSession().data(from: server.baseURL.appendingPathComponent("users/2"))
            let http = try #require(response as? HTTPURLResponse)
            return (http.statusCode, http.value(forHTTPHeaderField: "X-URLStubs-Failure"), String(decoding: data, as: UTF8.self), server.port)
        }
        let (status, field, body, port) = try outcome.result.get()
        #expect(status == 599)
        #expect(status == StubServer.noStubStatus)
        #expect(field?.hasPrefix("URLStubs: no stub matches GET http://127.0.0.1:\(port)/users/2 in scope #") == true)
        #expect(body.contains("GET /users/1"))
        #expect(outcome.problems.count == 1)
        guard case let .unmatchedRequest(request, nearMisses)? = outcome.problems.first?.kind else {
            Issue.record("expected an unmatched request, got \(outcome.problems)")
            return
        }
        #expect(request.url.path == "/users/2")
        #expect(nearMisses.map(\.stub) == ["GET /users/1"])
    }

    @Test("a HEAD gets the stub's status and headers and no body")
    func headRequest() async throws {
        try await withStubScope { scope in
            await scope.stub(.head("/file"), with: .text("twelve bytes", headers: ["ETag": "v1"]))
            let server = try await scope.serve()
            var request = URLRequest(url: server.baseURL.appendingPathComponent("file"))
            request.httpMethod = "HEAD"
            let (data, response) = try await plainSession().data(for: request)
            #expect(HTTPURLResponse.status(of: response) == 200)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "ETag") == "v1")
            #expect(data.isEmpty)
        }
    }

    @Test("a redirect is sent as a real 302 that the client follows back to the served scope")
    func redirectIsFollowedByTheClient() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/old"), with: .redirect(to: "https://api.example.com/new"))
            await scope.stub(.get("https://api.example.com/new"), with: .text("moved here"))
            let server = try await scope.serve(as: URL(string: "https://api.example.com")!)
            let (data, response) = try await plainSession().data(from: server.baseURL.appendingPathComponent("old"))
            #expect(String(decoding: data, as: UTF8.self) == "moved here")
            #expect(response.url?.absoluteString == "\(server.baseURL)/new")
            #expect(await scope.requests.map(\.url.path) == ["/old", "/new"])
        }
    }

    @Test("times:, sequences and delays work as through URLSession")
    func usesSequencesAndDelays() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("/seq"), with: .sequence([.text("first"), .text("second").delayed(by: .milliseconds(30))]))
            let server = try await scope.serve()
            let session = plainSession()
            let url = server.baseURL.appendingPathComponent("seq")
            let first = try await session.data(from: url).0
            let start = ContinuousClock.now
            let second = try await session.data(from: url).0
            #expect(ContinuousClock.now - start >= .milliseconds(30))
            #expect(String(decoding: first, as: UTF8.self) == "first")
            #expect(String(decoding: second, as: UTF8.self) == "second")
        }
    }

    @Test("a stubbed transport failure reaches the client as a dropped connection")
    func failureDropsTheConnection() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("/down"), with: .failure(.notConnectedToInternet))
            let server = try await scope.serve()
            let connection = try RawConnection(port: server.port)
            connection.send("GET /down HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            #expect(await connection.isClosed())
            #expect(await scope.exchanges.count == 1)
        }
    }

    @Test("a stream is sent chunked as it plays, and a mid-stream fault drops the connection after the chunks before it")
    func streams() async throws {
        try await withStubScope { scope in
            let pieces = ["one ", "two ", "three"].map { Data($0.utf8) }
            await scope.stub(.get("/whole"), with: .chunks(pieces, every: .milliseconds(5)))
            await scope.stub(.get("/broken"), with: .chunks(pieces, every: .milliseconds(5)).failing(after: .chunks(2), with: .networkConnectionLost))
            let server = try await scope.serve()
            let (data, _) = try await plainSession().data(from: server.baseURL.appendingPathComponent("whole"))
            #expect(String(decoding: data, as: UTF8.self) == "one two three")

            let connection = try RawConnection(port: server.port)
            connection.send("GET /broken HTTP/1.1\r\nHost: localhost:\(server.port)\r\n\r\n")
            #expect(await connection.response() == nil) // Cut off before the last chunk.
            let failure = await thrownError(URLError.self) {
                _ = try await plainSession().data(from: server.baseURL.appendingPathComponent("broken"))
            }
            #expect(failure != nil)
        }
    }

    @Test("a throttled body is sent at its rate, in slices, and arrives whole")
    func throttled() async throws {
        try await withStubScope { scope in
            let body = Data((0..<4_000).map { UInt8($0 % 251) })
            // 4,000 bytes at 20,000 bytes per second: 0.2 s, in slices of 1/20 s worth.
            await scope.stub(.get("/slow"), with: .data(body).throttled(bytesPerSecond: 20_000))
            let server = try await scope.serve()
            let start = ContinuousClock.now
            let (data, response) = try await plainSession().data(from: server.baseURL.appendingPathComponent("slow"))
            let elapsed = ContinuousClock.now - start
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(data == body)
            // Only a floor: a loaded machine may take longer, never shorter.
            #expect(elapsed >= .milliseconds(140))
        }
    }

    @Test("the server stops when its scope ends: the port refuses connections")
    func stopsWithTheScope() async throws {
        let server = try await withStubScope { scope in
            try await scope.serve()
        }
        #expect(!server.isRunning)
        #expect(throws: RawConnection.ConnectFailure.self) { try RawConnection(port: server.port) }
    }

    @Test("a request still waiting when the scope ends is answered at once with the scope's failure")
    func waitingRequestIsAnsweredAtScopeEnd() async throws {
        let outcome = await StubScope.withNewScope(name: "ends", location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)) { scope in
            await scope.stub(.get("/slow"), with: .text("late").delayed(by: .seconds(600)))
            let server = try await scope.serve()
            let connection = try RawConnection(port: server.port)
            connection.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            _ = try await scope.waitForRequest(matching: .get("/slow"), timeout: .patience)
            return connection
        }
        let connection = try outcome.result.get()
        // Long before the ten-minute delay: the scope's end answered it.
        let response = await connection.response()
        #expect(response?.status == 599)
        #expect(response?.text.contains("still waiting") == true || response?.text.contains("ended") == true)
        #expect(await connection.isClosed())
        #expect(outcome.problems.contains { if case .abandonedRequest = $0.kind { true } else { false } })
    }

    @Test("server-sent events arrive as chunks, in order, as they play")
    func serverSentEvents() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("/events"), with: .serverSentEvents([.message("one"), .message("two")], every: .milliseconds(5)))
            let server = try await scope.serve()
            let connection = try RawConnection(port: server.port)
            connection.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            let response = await connection.response()
            #expect(response?.field("Transfer-Encoding") == "chunked")
            #expect(response?.field("Content-Type") == "text/event-stream")
            #expect(response?.text == "data: one\n\ndata: two\n\n")
        }
    }

    @Test("a delay on the scope's manual clock holds the served answer until the test advances the clock")
    func manualClock() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get("/later"), with: .text("now").delayed(by: .seconds(600)))
            let server = try await scope.serve()
            let connection = try RawConnection(port: server.port)
            connection.send("GET /later HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            try await clock.waitForSleepers(atLeast: 1)
            #expect(await connection.response(within: .milliseconds(100)) == nil)
            await clock.advance(by: .seconds(600))
            #expect(await connection.response()?.text == "now")
        }
    }

    @Test("a stream that stalls is cut off when its scope ends: the client's connection drops")
    func stalledStreamEndsWithScope() async throws {
        let outcome = await StubScope.withNewScope(name: "stall", location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)) { scope in
            await scope.stub(.get("/stall"), with: .chunks([Data("first".utf8), Data("never".utf8)]).stalling(after: .chunks(1)))
            let server = try await scope.serve()
            let connection = try RawConnection(port: server.port)
            connection.send("GET /stall HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            #expect(await connection.received("first"))
            return connection
        }
        let connection = try outcome.result.get()
        // The head and the first chunk arrived; then the connection drops, no last chunk.
        let response = await connection.response()
        #expect(response == nil, "\(String(describing: response?.status)) \(String(describing: response?.text))")
        #expect(outcome.problems.contains { if case .abandonedRequest = $0.kind { true } else { false } })
    }

    #if os(Linux)
    @Test("a process spawned while a scope is served inherits none of the server's sockets, listening or connected")
    func childProcessInheritsNoSocket() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("/x"), with: .text("ok"))
            let server = try await scope.serve()
            let connection = try RawConnection(port: server.port)
            connection.send("GET /x HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            #expect(await connection.received("ok"))
            let serverSockets = Self.socketInodes(localPort: server.port)
            #expect(serverSockets.count >= 2, "the listener and the accepted connection: \(serverSockets)")
            let listing = try Self.inheritedDescriptors()
            let inherited = serverSockets.filter { listing.contains("socket:[\($0)]") }
            #expect(inherited.isEmpty, "the child holds the server's sockets \(inherited):\n\(listing)")
        }
    }

    /// What a child process started with plain `posix_spawn` (no file actions,
    /// as a tool or library may start one; Foundation's `Process` closes what it
    /// does not pass on) sees in its `/proc/self/fd`: `ls -l` of it.
    static func inheritedDescriptors() throws -> String {
        let listing = FileManager.default.temporaryDirectory.appendingPathComponent("URLStubsTests-fd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: listing) }
        let arguments = ["/bin/sh", "-c", "ls -l /proc/self/fd > '\(listing.path)'"]
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sh", nil, nil, &cArguments, environ)
        try #require(spawned == 0, "posix_spawn failed: \(spawned)")
        var status: Int32 = 0
        _ = waitpid(child, &status, 0)
        return try String(contentsOf: listing, encoding: .utf8)
    }

    /// The inodes of this process's TCP sockets whose local port is `port` (the
    /// server's side: its listeners and the connections it accepted).
    static func socketInodes(localPort port: UInt16) -> [String] {
        let suffix = ":" + String(format: "%04X", port)
        return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { table -> [String] in
            // Read to its end: a /proc file says it is empty, and is longer than a read.
            let text = FileHandle(forReadingAtPath: table).map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
            return text.split(separator: "\n").dropFirst().compactMap { line -> String? in
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[1].hasSuffix(suffix) else { return nil }
                return String(fields[9])
            }
        }
    }
    #endif

    @Test("serving an ended scope, a bad origin or a zero limit is refused with an error naming it")
    func badInput() async throws {
        let ended = try await withStubScope { $0 }
        let refused = await thrownError(ServingError.self) { _ = try await ended.serve() }
        #expect(refused?.description == "URLStubs cannot serve \(ended): it has ended. Call serve() inside the scope, while it is open.")
        try await withStubScope { scope in
            let badOrigin = await thrownError(ServingError.self) { _ = try await scope.serve(as: URL(string: "https://api.example.com/v1")!) }
            #expect(badOrigin?.description.contains("\"https://api.example.com/v1\"") == true)
            var limits = ServingLimits()
            limits.connections = 0
            let badLimit = await thrownError(ServingError.self) { _ = try await scope.serve(limits: limits) }
            #expect(badLimit?.description == "URLStubs cannot serve with ServingLimits.connections = 0: it must be greater than zero.")
        }
    }
}

