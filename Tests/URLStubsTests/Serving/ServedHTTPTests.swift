#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// Runs `body` with a scope that answers `GET /hello` with "hi" and echoes the
/// body of `POST /echo`, served with `limits`.
func withEchoServer(limits: ServingLimits = ServingLimits(), _ body: (StubServer, StubScope) async throws -> Void) async throws {
    try await withStubScope { scope in
        await scope.stub(.get("/hello"), with: .text("hi"))
        await scope.stub(.post("/echo")) { request in .data(request.body ?? Data()) }
        let server = try await scope.serve(limits: limits)
        try await body(server, scope)
    }
}

@Suite("Served scopes: HTTP/1.1 as RFC 9112 says", .timeLimit(.minutes(1)))
struct ServedHTTPTests {
    @Test("keep-alive: requests with and without bodies, one after the other on one connection, each answered, the connection left open")
    func keepAlive() async throws {
        try await withEchoServer { server, _ in
            let connection = try RawConnection(port: server.port)
            for round in 0..<3 {
                connection.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
                let response = await connection.response()
                #expect(response?.status == 200)
                #expect(response?.text == "hi")
                #expect(response?.field("Connection") == nil)
                connection.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 7\r\n\r\nround \(round)")
                #expect(await connection.response()?.text == "round \(round)")
            }
            #expect(await !connection.isClosed(within: .milliseconds(50)))
        }
    }

    @Test("pipelining: requests sent together are answered in order")
    func pipelining() async throws {
        try await withEchoServer { server, _ in
            let connection = try RawConnection(port: server.port)
            let host = "Host: localhost:\(server.port)\r\n"
            connection.send("POST /echo HTTP/1.1\r\n\(host)Content-Length: 3\r\n\r\none" + "GET /hello HTTP/1.1\r\n\(host)\r\n" + "POST /echo HTTP/1.1\r\n\(host)Content-Length: 5\r\nConnection: close\r\n\r\nthree")
            #expect(await connection.response()?.text == "one")
            #expect(await connection.response()?.text == "hi")
            let last = await connection.response()
            #expect(last?.text == "three")
            #expect(last?.field("Connection") == "close")
            #expect(await connection.isClosed())
        }
    }

    @Test("a chunked request body is joined, extensions and trailers dropped, and seen by the scope")
    func chunkedBody() async throws {
        try await withEchoServer { server, scope in
            let connection = try RawConnection(port: server.port)
            connection.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nTransfer-Encoding: chunked\r\n\r\n5;name=x\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: t\r\n\r\n")
            #expect(await connection.response()?.text == "hello world")
            #expect(await scope.requests.last?.body == Data("hello world".utf8))
        }
    }

    /// A chunked body (after the head) and what it must get: a status and the
    /// exact body, the refusal's reason or the echo of what was read.
    struct ChunkedCase: Sendable, CustomTestStringConvertible {
        var body: String
        var status: Int
        var text: String
        var testDescription: String { "\(body.debugDescription) gets \(status)" }

        init(_ body: String, _ status: Int, _ text: String) {
            self.body = body
            self.status = status
            self.text = text
        }
    }

    /// Malformed lines of a chunked body, each in one place, and well-formed ones.
    static let chunkedLines: [ChunkedCase] = [
        // Bare LF and bare CR, wherever a line of the body ends.
        ChunkedCase("5\nhello\r\n0\r\n\r\n", 400, "a line of the chunked request body ends with LF alone; HTTP/1.1 lines end with CR LF\n"),
        ChunkedCase("5\r\nhello\r\n0\n\n", 400, "a line of the chunked request body ends with LF alone; HTTP/1.1 lines end with CR LF\n"),
        ChunkedCase("5\r\nhello\r\n0\r\n\n", 400, "a line of the chunked request body ends with LF alone; HTTP/1.1 lines end with CR LF\n"),
        ChunkedCase("5\r\nhello\r\n0\r\nX-T: a\n\r\n", 400, "a line of the chunked request body ends with LF alone; HTTP/1.1 lines end with CR LF\n"),
        ChunkedCase("5;a\rb\r\nhello\r\n0\r\n\r\n", 400, "a line of the chunked request body has a CR that is not followed by LF\n"),
        ChunkedCase("5\r\r\nhello\r\n0\r\n\r\n", 400, "a line of the chunked request body has a CR that is not followed by LF\n"),
        ChunkedCase("5\r\nhello\r\n0\r\nX-T: a\rb\r\n\r\n", 400, "a line of the chunked request body has a CR that is not followed by LF\n"),
        ChunkedCase("5\r\nhello\r0\r\n\r\n", 400, "a chunk of the request body is not followed by CR LF\n"),
        ChunkedCase("5\r\nhello\n0\r\n\r\n", 400, "a chunk of the request body is not followed by CR LF\n"),
        // Chunk extensions: ;NAME or ;NAME=VALUE, a token name, a token or quoted-string value.
        ChunkedCase("5;a@b=c\r\nhello\r\n0\r\n\r\n", 400, "the chunk size line \"5;a@b=c\" has a malformed chunk extension: each is ;NAME or ;NAME=VALUE with NAME a token and VALUE a token or a quoted string (RFC 9112 section 7.1.1)\n"),
        ChunkedCase("5;=c\r\nhello\r\n0\r\n\r\n", 400, "the chunk size line \"5;=c\" has a malformed chunk extension: each is ;NAME or ;NAME=VALUE with NAME a token and VALUE a token or a quoted string (RFC 9112 section 7.1.1)\n"),
        ChunkedCase("5;a=\r\nhello\r\n0\r\n\r\n", 400, "the chunk size line \"5;a=\" has a malformed chunk extension: each is ;NAME or ;NAME=VALUE with NAME a token and VALUE a token or a quoted string (RFC 9112 section 7.1.1)\n"),
        ChunkedCase("5;a=b c\r\nhello\r\n0\r\n\r\n", 400, "the chunk size line \"5;a=b c\" has a malformed chunk extension: each is ;NAME or ;NAME=VALUE with NAME a token and VALUE a token or a quoted string (RFC 9112 section 7.1.1)\n"),
        ChunkedCase("5;a=\"b\r\nhello\r\n0\r\n\r\n", 400, "the chunk size line \"5;a=\\x22b\" has a malformed chunk extension: each is ;NAME or ;NAME=VALUE with NAME a token and VALUE a token or a quoted string (RFC 9112 section 7.1.1)\n"),
        ChunkedCase("5;a \r\nhello\r\n0\r\n\r\n", 400, "the chunk size line \"5;a \" has a malformed chunk extension: each is ;NAME or ;NAME=VALUE with NAME a token and VALUE a token or a quoted string (RFC 9112 section 7.1.1)\n"),
        ChunkedCase("5 \r\nhello\r\n0\r\n\r\n", 400, "the chunk size line \"5 \" is not a hexadecimal size\n"),
        // Trailers: field lines, as in the head.
        ChunkedCase("5\r\nhello\r\n0\r\nX-T: a\r\n b\r\n\r\n", 400, "a trailer line starts with a space or tab (obsolete line folding, refused by RFC 9112)\n"),
        ChunkedCase("5\r\nhello\r\n0\r\nX-T : a\r\n\r\n", 400, "the trailer line \"X-T : a\" is not NAME: VALUE with NAME a token and VALUE free of control characters\n"),
        ChunkedCase("5\r\nhello\r\n0\r\nno colon\r\n\r\n", 400, "the trailer line \"no colon\" is not NAME: VALUE with NAME a token and VALUE free of control characters\n"),
        // Well-formed: read, extensions and trailers dropped.
        ChunkedCase("5;name=\"a \\\"quoted\\\" value; with = and ;\"\r\nhello\r\n0\r\n\r\n", 200, "hello"),
        ChunkedCase("5 ; a = \"\" ;b= c;d\r\nhello\r\n0;e=\"f\"\r\n\r\n", 200, "hello"),
        ChunkedCase("5\r\nhello\r\n0\r\nX-Checksum: abc\r\nX-Empty:\r\n\r\n", 200, "hello"),
    ]

    @Test("a chunked body's lines are as strict as the head: a bare LF or CR, a malformed chunk extension or trailer, an obsolete fold each get 400 naming the problem; well-formed extensions and trailers are read", arguments: chunkedLines)
    func chunkedBodyLines(_ testCase: ChunkedCase) async throws {
        try await withEchoServer { server, scope in
            let connection = try RawConnection(port: server.port)
            connection.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nTransfer-Encoding: chunked\r\n\r\n" + testCase.body)
            let response = await connection.response()
            #expect(response?.status == testCase.status)
            #expect(response?.text == testCase.text)
            if testCase.status == 400 {
                #expect(response?.field("Connection") == "close")
                #expect(await connection.isClosed())
                #expect(await scope.requests.isEmpty)
            } else {
                #expect(await scope.requests.last?.body == Data(testCase.text.utf8))
            }
        }
    }

    @Test("Expect: 100-continue gets 100 Continue before the body is sent, then the answer")
    func expectContinue() async throws {
        try await withEchoServer { server, _ in
            let connection = try RawConnection(port: server.port)
            connection.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
            #expect(await connection.response()?.status == 100)
            connection.send("body")
            #expect(await connection.response()?.text == "body")
        }
    }

    @Test("an HTTP/1.0 request's Expect: 100-continue is ignored: no 100 Continue, the answer once the body came, the connection closed")
    func expectContinueInHTTP10() async throws {
        try await withEchoServer { server, _ in
            let connection = try RawConnection(port: server.port)
            connection.send("POST /echo HTTP/1.0\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
            #expect(await connection.response(within: .milliseconds(300)) == nil) // Nothing before the body.
            connection.send("body")
            let response = await connection.response()
            #expect(response?.status == 200)
            #expect(response?.text == "body")
            #expect(await connection.isClosed())
        }
    }

    @Test("an HTTP/1.0 request without Host names this server: answered, and the connection closed")
    func http10WithoutHost() async throws {
        try await withEchoServer { server, scope in
            let connection = try RawConnection(port: server.port)
            connection.send("GET /hello HTTP/1.0\r\n\r\n")
            let response = await connection.response()
            #expect(response?.status == 200)
            #expect(response?.text == "hi")
            #expect(await connection.isClosed())
            #expect(await scope.requests.map(\.url.path) == ["/hello"])
        }
    }

    @Test("a stream to an HTTP/1.0 request has no chunks: its pieces as they play, and the close ends the body")
    func streamToHTTP10() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("/stream"), with: .chunks([Data("abc".utf8), Data("def".utf8)]))
            let server = try await scope.serve()
            let connection = try RawConnection(port: server.port)
            connection.send("GET /stream HTTP/1.0\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            let response = await connection.response()
            #expect(response?.status == 200)
            #expect(response?.field("Transfer-Encoding") == nil)
            #expect(response?.field("Content-Length") == nil)
            #expect(response?.field("Connection") == "close")
            #expect(response?.text == "abcdef")
        }
    }

    @Test("a stream with a status that has no body (204, 304) sends its head alone, and the next response on the connection is read as itself")
    func bodilessStreamKeepsTheConnectionInStep() async throws {
        for status in [204, 304] {
            try await withStubScope { scope in
                await scope.stub(.get("/empty"), with: .chunks([Data("abc".utf8)], status: status))
                await scope.stub(.get("/hello"), with: .text("hi"))
                let server = try await scope.serve()
                let connection = try RawConnection(port: server.port)
                let host = "Host: 127.0.0.1:\(server.port)\r\n"
                connection.send("GET /empty HTTP/1.1\r\n\(host)\r\nGET /hello HTTP/1.1\r\n\(host)\r\n")
                let first = await connection.response()
                #expect(first?.status == status)
                #expect(first?.field("Transfer-Encoding") == nil)
                let second = await connection.response()
                #expect(second?.status == 200)
                #expect(second?.text == "hi")
            }
        }
    }

    @Test("empty lines before a request are skipped however TCP splits them, even a CR and its LF apart")
    func emptyLinesSplitAnywhere() async throws {
        var limits = ServingLimits()
        limits.idleTimeout = .patience // The client's second send may be held back on a loaded machine.
        limits.headTimeout = .patience
        try await withEchoServer(limits: limits) { server, _ in
            let request = Array("\r\n\r\nGET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n".utf8)
            for split in [1, 2, 3] {
                let connection = try RawConnection(port: server.port)
                connection.send(Array(request[..<split]))
                try await Task.sleep(for: .milliseconds(50))
                connection.send(Array(request[split...]))
                let response = await connection.response()
                #expect(response?.status == 200, "split after byte \(split)")
                #expect(response?.text == "hi")
            }
        }
    }

    @Test("limits far past any test (Int64.max seconds: no limit, in effect) are taken as given, not a crash")
    func hugeLimits() async throws {
        var limits = ServingLimits()
        limits.idleTimeout = .seconds(Int64.max)
        limits.headTimeout = .seconds(Int64.max)
        limits.bodyTimeout = .seconds(Int64.max)
        try await withEchoServer(limits: limits) { server, _ in
            let connection = try RawConnection(port: server.port)
            connection.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 4\r\n\r\n")
            try await Task.sleep(for: .milliseconds(20))
            connection.send("body")
            #expect(await connection.response()?.text == "body")
        }
    }

    @Test("a body over the limit declared with Expect: 100-continue gets 413 and no 100 Continue")
    func expectContinueTooLarge() async throws {
        var limits = ServingLimits()
        limits.bodyBytes = 10
        try await withEchoServer(limits: limits) { server, scope in
            let connection = try RawConnection(port: server.port)
            connection.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\n")
            let response = await connection.response()
            #expect(response?.status == 413)
            #expect(response?.text == "the request body is larger than 10 bytes (ServingLimits.bodyBytes)\n")
            #expect(await connection.isClosed())
            #expect(await scope.requests.isEmpty)
        }
    }

    @Test("Content-Length with Transfer-Encoding, and conflicting Content-Lengths, get 400 naming the problem; equal repeated lengths are one length")
    func framingRules() async throws {
        try await withEchoServer { server, _ in
            let host = "Host: 127.0.0.1:\(server.port)\r\n"
            let cases: [(String, Int, String)] = [
                ("POST /echo HTTP/1.1\r\n\(host)Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400, "the request has both Content-Length and Transfer-Encoding (RFC 9112 section 6.1 forbids both)\n"),
                ("POST /echo HTTP/1.1\r\n\(host)Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400, "the request has conflicting Content-Length values: \"3\", \"4\"\n"),
                ("POST /echo HTTP/1.1\r\n\(host)Content-Length: 3, 4\r\n\r\nabcd", 400, "the request has conflicting Content-Length values: \"3\", \"4\"\n"),
                ("POST /echo HTTP/1.1\r\n\(host)Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501, "the transfer coding \"gzip\" is not supported; only chunked is\n"),
                ("POST /echo HTTP/1.1\r\n\(host)Transfer-Encoding: chunked, gzip\r\n\r\n", 400, "the request's Transfer-Encoding does not end with chunked, so its length is unknown\n"),
                ("POST /echo HTTP/1.1\r\n\(host)Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc", 200, "abc"),
            ]
            for (request, status, text) in cases {
                let connection = try RawConnection(port: server.port)
                connection.send(request)
                let response = await connection.response()
                #expect(response?.status == status, "\(request.debugDescription)")
                #expect(response?.text == text, "\(request.debugDescription)")
                if status != 200 {
                    #expect(response?.field("Connection") == "close")
                    #expect(response?.field("Server") == "URLStubs")
                    #expect(await connection.isClosed())
                }
            }
        }
    }

    @Test("a Host that is not a loopback name with the server's port is refused with 421 (DNS rebinding)")
    func foreignHostIsRefused() async throws {
        try await withEchoServer { server, scope in
            let port = server.port
            for host in ["evil.example.com:\(port)", "127.0.0.1", "localhost:\(port &+ 1)", "127.0.0.2:\(port)", "localhost.:\(port)", "[::2]:\(port)", "127.0.0.1:\(port)@evil.example.com", "LOCALHOST:\(port) ", "0x7f.0.0.1:\(port)", "2130706433:\(port)"] {
                let connection = try RawConnection(port: port)
                connection.send("GET /hello HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                let response = await connection.response()
                #expect(response?.status == (host.hasSuffix(" ") ? 200 : 421), "Host: \(host)")
            }
            for target in ["http://evil.example.com:\(port)/hello", "http://evil.example.com/hello"] {
                let connection = try RawConnection(port: port)
                connection.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                #expect(await connection.response()?.status == 421, "\(target)")
            }
            // Names that only Unicode case folding would take for localhost (a long s, a
            // Kelvin sign) are not it: refused, as malformed or as foreign.
            for folded in ["localhoſt:\(port)", "LOCALHOſT:\(port)", "\u{212A}ocalhost:\(port)"] {
                let connection = try RawConnection(port: port)
                connection.send("GET /hello HTTP/1.1\r\nHost: \(folded)\r\n\r\n")
                let status = await connection.response()?.status
                #expect(status == 400 || status == 421, "Host: \(folded)")
            }
            for accepted in ["127.0.0.1:\(port)", "localhost:\(port)", "LocalHost:\(port)"] {
                let connection = try RawConnection(port: port)
                connection.send("GET /hello HTTP/1.1\r\nHost: \(accepted)\r\n\r\n")
                #expect(await connection.response()?.status == 200, "Host: \(accepted)")
            }
            let absolute = try RawConnection(port: port)
            absolute.send("GET http://localhost:\(port)/hello HTTP/1.1\r\nHost: localhost:\(port)\r\n\r\n")
            #expect(await absolute.response()?.text == "hi")
            #expect(await scope.requests.count == 5) // 3 accepted names, the absolute target, the trimmed host.
        }
    }

    @Test("IPv6: the server answers on [::1] with a Host of [::1] and its port")
    func ipv6() async throws {
        try await withEchoServer { server, _ in
            guard let ipv6 = server.ipv6BaseURL else { return } // No IPv6 loopback on this machine.
            #expect(ipv6.absoluteString == "http://[::1]:\(server.port)")
            let connection = try RawConnection(port: server.port, ipv6: true)
            connection.send("GET /hello HTTP/1.1\r\nHost: [::1]:\(server.port)\r\n\r\n")
            #expect(await connection.response()?.text == "hi")
        }
    }

    @Test("limits: a head over headBytes gets 431, a request line over it 414, too many header lines 431, a body over bodyBytes 413")
    func limits() async throws {
        var limits = ServingLimits()
        limits.headBytes = 1_024
        limits.headerCount = 10
        limits.bodyBytes = 100
        try await withEchoServer(limits: limits) { server, scope in
            let host = "Host: 127.0.0.1:\(server.port)\r\n"
            let cases: [(String, Int, String)] = [
                ("GET /hello HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "a", count: 2_000))\r\n\r\n", 431, "the request head is larger than 1024 bytes (ServingLimits.headBytes)\n"),
                ("GET /\(String(repeating: "a", count: 2_000)) HTTP/1.1\r\n\(host)\r\n", 414, "the request line, with its line end, is longer than 1024 bytes (ServingLimits.headBytes)\n"),
                ("GET /hello HTTP/1.1\r\n\(host)" + (0..<10).map { "X-\($0): v\r\n" }.joined() + "\r\n", 431, "the request has more than 10 header lines (ServingLimits.headerCount)\n"),
                ("POST /echo HTTP/1.1\r\n\(host)Content-Length: 101\r\n\r\n", 413, "the request body is larger than 100 bytes (ServingLimits.bodyBytes)\n"),
                ("POST /echo HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n40\r\n\(String(repeating: "a", count: 64))\r\n40\r\n", 413, "the request body is larger than 100 bytes (ServingLimits.bodyBytes)\n"),
            ]
            for (request, status, text) in cases {
                let connection = try RawConnection(port: server.port)
                connection.send(request)
                let response = await connection.response()
                #expect(response?.status == status)
                #expect(response?.text == text)
                #expect(await connection.isClosed())
            }
            #expect(await scope.requests.isEmpty)
        }
    }

    @Test("a request line past the default headBytes gets 414, though the limit is a whole number of the server's reads (it filled the buffer with no line end yet)")
    func requestLineAtTheDefaultLimit() async throws {
        try await withEchoServer { server, scope in
            for length in [32 * 1_024, 40_000, 100_000] {
                let connection = try RawConnection(port: server.port)
                connection.send("GET /\(String(repeating: "a", count: length)) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
                let response = await connection.response()
                #expect(response?.status == 414, "a line of \(length) bytes")
                #expect(response?.text == "the request line, with its line end, is longer than 32768 bytes (ServingLimits.headBytes)\n")
            }
            #expect(await scope.requests.isEmpty)
        }
    }

    @Test("a request line whose line end reaches past headBytes gets 414 however TCP splits it: all at once, or cut before its LF")
    func requestLineAtTheLimitSplitAnywhere() async throws {
        var limits = ServingLimits()
        limits.headBytes = 64
        // A loaded machine (the thread sanitizer's CI run) may hold the client's
        // second send back longer than the default 10 s: a 408 would be right then.
        limits.headTimeout = .patience
        try await withEchoServer(limits: limits) { server, _ in
            /// The status the server answers `line` and the head's end with, sent
            /// whole or cut after `split` bytes.
            func status(of line: String, split: Int?) async throws -> Int? {
                let bytes = Array((line + "\r\n\r\n").utf8)
                let connection = try RawConnection(port: server.port)
                guard let split else {
                    connection.send(bytes)
                    return await connection.response()?.status
                }
                connection.send(Array(bytes[..<split]))
                try await Task.sleep(for: .milliseconds(50))
                connection.send(Array(bytes[split...]))
                return await connection.response()?.status
            }
            // 62 bytes, then CR LF: 64 with its line end, and the head's end past it.
            let line = "GET /" + String(repeating: "a", count: 48) + " HTTP/1.0"
            #expect(line.utf8.count == 62)
            let whole = try await status(of: line, split: nil)
            let cut = try await status(of: line, split: 63) // Cut before its LF.
            #expect([whole, cut] == [431, 431])
            // 63 bytes: 65 with its line end.
            let longer = "GET /" + String(repeating: "a", count: 49) + " HTTP/1.0"
            let longerWhole = try await status(of: longer, split: nil)
            let longerCut = try await status(of: longer, split: 64)
            #expect([longerWhole, longerCut] == [414, 414])
        }
    }

    @Test("an HTTP/1.0 stream cut short (failing midway) resets the connection, where a whole one ends it well: a body ended by the close must not look whole")
    func http10StreamCutShortIsAReset() async throws {
        try await withStubScope { scope in
            let pieces = [Data("abc".utf8), Data("def".utf8), Data("ghi".utf8)]
            await scope.stub(.get("/whole"), with: .chunks(pieces))
            await scope.stub(.get("/cut"), with: StubResponse.chunks(pieces).failing(after: .chunks(1), with: .networkConnectionLost))
            let server = try await scope.serve()
            let whole = try RawConnection(port: server.port)
            whole.send("GET /whole HTTP/1.0\r\n\r\n")
            #expect(await whole.endedWithReset() == false)
            #expect(whole.bufferedText.hasSuffix("\r\n\r\nabcdefghi"))
            let cut = try RawConnection(port: server.port)
            cut.send("GET /cut HTTP/1.0\r\n\r\n")
            #expect(await cut.endedWithReset() == true)
        }
    }

    @Test("a closing answer reaches the client whole, though it sent another request meanwhile (the connection is not reset under it)")
    func closingAnswerWithAPipelinedRequest() async throws {
        let body = Data(repeating: 0x61, count: 4_000_000)
        try await withStubScope { scope in
            await scope.stub(.get("/big"), with: .data(body))
            let server = try await scope.serve()
            for version in ["HTTP/1.0", "HTTP/1.1"] {
                let connection = try RawConnection(port: server.port)
                var small: Int32 = 64 * 1_024
                _ = setsockopt(connection.descriptor, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
                connection.send("GET /big \(version)\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n")
                try await Task.sleep(for: .milliseconds(100)) // The server is sending, blocked on the client's small buffer.
                connection.send("GET /big \(version)\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
                let response = await connection.response()
                #expect(response?.status == 200, "\(version)")
                #expect(response?.body.count == body.count, "\(version)")
            }
        }
    }

    @Test("a CR alone on an idle connection is not half a request: at the idle timeout the connection closes, with no 408")
    func loneCarriageReturnIsIdle() async throws {
        var limits = ServingLimits()
        limits.idleTimeout = .milliseconds(300)
        try await withEchoServer(limits: limits) { server, _ in
            let connection = try RawConnection(port: server.port)
            connection.send("\r")
            #expect(await connection.isClosed())
            #expect(connection.bufferedText.isEmpty)
        }
    }

    @Test("a HEAD answered 204 carries no Content-Length, whatever the stub says (RFC 9110, section 8.6)")
    func headOf204() async throws {
        try await withStubScope { scope in
            await scope.stub(.head("/none"), with: .text("body", status: 204, headers: ["Content-Length": "4"]))
            let server = try await scope.serve()
            let connection = try RawConnection(port: server.port)
            connection.send("HEAD /none HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            let response = await connection.response(isHead: true)
            #expect(response?.status == 204)
            #expect(response?.field("Content-Length") == nil)
        }
    }

    @Test("slowloris: a head not whole within headTimeout gets 408; a body past bodyTimeout gets 408; an idle connection is closed")
    func timeouts() async throws {
        var limits = ServingLimits()
        limits.headTimeout = .milliseconds(200)
        limits.bodyTimeout = .milliseconds(200)
        // Long for the first two: a client held back before its first byte must not
        // be closed as idle. The idle case has a server of its own, below.
        limits.idleTimeout = .patience
        try await withEchoServer(limits: limits) { server, _ in
            let slowHead = try RawConnection(port: server.port)
            // Sent in one piece and never finished: nothing is sent after the 408,
            // so that no reset can discard it, whatever a loaded machine delays.
            slowHead.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1")
            let timedOut = await slowHead.response()
            #expect(timedOut?.status == 408)
            #expect(timedOut?.text == "the request head did not arrive in time (ServingLimits.headTimeout)\n")

            let slowBody = try RawConnection(port: server.port)
            slowBody.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 10\r\n\r\nabc")
            #expect(await slowBody.response()?.status == 408)
        }
        var idleLimits = ServingLimits()
        idleLimits.idleTimeout = .milliseconds(200)
        try await withEchoServer(limits: idleLimits) { server, _ in
            let idle = try RawConnection(port: server.port)
            #expect(await idle.isClosed())
            #expect(idle.bufferedText.isEmpty)
        }
    }

    @Test("connections over the limit get 503 naming the limit; closing one makes room")
    func connectionLimit() async throws {
        var limits = ServingLimits()
        limits.connections = 2
        try await withEchoServer(limits: limits) { server, _ in
            let first = try RawConnection(port: server.port)
            let second = try RawConnection(port: server.port)
            first.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            second.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            #expect(await first.response()?.status == 200)
            #expect(await second.response()?.status == 200)
            let third = try RawConnection(port: server.port)
            let refused = await third.response()
            #expect(refused?.status == 503)
            #expect(refused?.text == "this served scope already has 2 open connections (ServingLimits.connections); close some or raise the limit\n")
            first.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n")
            #expect(await first.response()?.status == 200)
            #expect(await first.isClosed())
            var admitted = false
            let deadline = ContinuousClock.now + .patience // The server learns of the close on its own time.
            while !admitted, ContinuousClock.now < deadline {
                let fourth = try RawConnection(port: server.port)
                fourth.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
                admitted = await fourth.response()?.status == 200
                if !admitted { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(admitted)
        }
    }

    @Test("stop() closes idle keep-alive connections at once and refuses new ones")
    func stopClosesConnections() async throws {
        var limits = ServingLimits()
        limits.idleTimeout = .seconds(600)
        try await withEchoServer(limits: limits) { server, _ in
            let connection = try RawConnection(port: server.port)
            connection.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            #expect(await connection.response()?.status == 200)
            server.stop()
            // Long before the ten-minute idle timeout that would close it otherwise.
            #expect(await connection.isClosed())
            #expect(throws: RawConnection.ConnectFailure.self) { try RawConnection(port: server.port) }
            server.stop() // Again: nothing.
        }
    }
}
