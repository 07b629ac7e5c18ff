#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) import URLStubs

/// What a served scope must do with one hostile request.
enum FuzzOutcome: Equatable, CustomStringConvertible {
    /// Answered with this status (a refusal, then the connection closes; or the stub's answer).
    case status(Int)
    /// Closed without an answer: the request never ended (truncated).
    case closed
    /// Refused one way or another (random bytes): a 4xx/5xx from the server, or
    /// closed; never an answer from the scope.
    case refused

    var description: String {
        switch self {
        case let .status(status): "status \(status)"
        case .closed: "closed without an answer"
        case .refused: "refused"
        }
    }
}

/// The hostile requests: each is sent on a connection of its own, whose sending
/// side is then closed, so that the server sees exactly these bytes and no more.
func fuzzCases(port: UInt16) -> [(name: String, bytes: [UInt8], outcome: FuzzOutcome)] {
    let host = "Host: 127.0.0.1:\(port)\r\n"
    var cases: [(String, [UInt8], FuzzOutcome)] = []
    func add(_ name: String, _ text: String, _ outcome: FuzzOutcome) {
        cases.append((name, Array(text.utf8), outcome))
    }
    func addBytes(_ name: String, _ bytes: [UInt8], _ outcome: FuzzOutcome) {
        cases.append((name, bytes, outcome))
    }

    // Request lines (400 unless the version is a well-formed other one: 505).
    let badLines = [
        "GET", "GET /", "GET / HTTP/1.1 extra", "GET  / HTTP/1.1", "GET /  HTTP/1.1", " GET / HTTP/1.1", "G@T / HTTP/1.1",
        "GET / HTTP/1", "GET / http/1.1", "GET / HTTP/1.1x", "GET foo HTTP/1.1", "GET * HTTP/1.1", "OPTIONS * HTTP/1.1",
        "GET\t/\tHTTP/1.1", "GET /a\u{01}b HTTP/1.1", "GET /caf\u{E9} HTTP/1.1", "G\u{C9}T / HTTP/1.1", "GET ftp://127.0.0.1:\(port)/ HTTP/1.1",
        "GET //127.0.0.1 HTTP/1.1x", "\u{00}GET / HTTP/1.1", "GET / HTTP/", "GET / HTTP/1.", "GET / HTTP/11.1", "/ HTTP/1.1", "GET /a b HTTP/1.1",
    ]
    for line in badLines {
        add("request line \(line.debugDescription)", "\(line)\r\n\(host)\r\n", .status(400))
    }
    for version in ["HTTP/2.0", "HTTP/1.2", "HTTP/0.9", "HTTP/3.0"] {
        add("version \(version)", "GET / \(version)\r\n\(host)\r\n", .status(505))
    }
    add("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", .status(505))

    // Header lines.
    let badFields = [
        "X-A : b", "X-A", ": b", "X A: b", "X-A:\u{01}", "X-A: b\u{7F}", "X-A: b\u{00}c", "X(A): b", "X-A: \u{1B}[31m",
        "Host\t: 127.0.0.1", "X-A: b\rX-B: c", "\u{C9}: b",
    ]
    for field in badFields {
        add("field \(field.debugDescription)", "GET /ok HTTP/1.1\r\n\(host)\(field)\r\n\r\n", .status(400))
    }
    add("obsolete fold", "GET /ok HTTP/1.1\r\n\(host)X-A: b\r\n  folded\r\n\r\n", .status(400))
    add("bare LF line ends", "GET /ok HTTP/1.1\n\(host.replacingOccurrences(of: "\r\n", with: "\n"))\n", .status(400))
    add("bare LF in a field", "GET /ok HTTP/1.1\r\nX-A: b\nX-B: c\r\n\(host)\r\n", .status(400))
    add("bare CR before the end", "GET /ok HTTP/1.1\r\n\(host)X-A: b\r\r\n\r\n", .status(400))
    add("no Host", "GET /ok HTTP/1.1\r\n\r\n", .status(400))
    add("two Hosts", "GET /ok HTTP/1.1\r\n\(host)\(host)\r\n", .status(400))

    // Hosts that are not this server (DNS rebinding): 421.
    let foreignHosts = [
        "evil.example", "evil.example:\(port)", "127.0.0.1", "127.0.0.1:\(port + 1)", "127.0.0.1:0\(port)", "127.0.0.01:\(port)",
        "127.1:\(port)", "0x7f000001:\(port)", "2130706433:\(port)", "localhost.:\(port)", "localhost.evil.example:\(port)",
        "[::1]", "[::ffff:127.0.0.1]:\(port)", "[0:0:0:0:0:0:0:1]:\(port)", "::1:\(port)", "127.0.0.1:\(port).evil.example",
        "evil.example#127.0.0.1:\(port)", "user@127.0.0.1:\(port)", "127.0.0.1%2e:\(port)", "",
    ]
    for name in foreignHosts {
        add("Host \(name.debugDescription)", "GET /ok HTTP/1.1\r\nHost: \(name)\r\n\r\n", .status(421))
    }
    add("absolute target elsewhere", "GET http://evil.example/ok HTTP/1.1\r\n\(host)\r\n", .status(421))
    add("absolute target with user info", "GET http://a@127.0.0.1:\(port)/ok HTTP/1.1\r\n\(host)\r\n", .status(421))

    // Framing: RFC 9112 section 6.
    let post = "POST /echo HTTP/1.1\r\n\(host)"
    let badLengths = ["-1", "+5", "0x10", "5 5", "5;", "five", "", "1e3", "٣", "5.0"]
    for value in badLengths {
        add("Content-Length \(value.debugDescription)", "\(post)Content-Length: \(value)\r\n\r\nhello", .status(400))
    }
    add("conflicting lengths", "\(post)Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", .status(400))
    add("conflicting lengths in one line", "\(post)Content-Length: 5, 6\r\n\r\nhello!", .status(400))
    add("a length with an empty member", "\(post)Content-Length: 5,\r\n\r\nhello", .status(400))
    add("length and chunked", "\(post)Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", .status(400))
    add("chunked and length", "\(post)Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", .status(400))
    add("length and CHUNKED", "\(post)Content-Length: 5\r\nTransfer-Encoding: CHUNKED\r\n\r\nhello", .status(400))
    add("length and an empty Transfer-Encoding", "\(post)Content-Length: 5\r\nTransfer-Encoding: \r\n\r\nhello", .status(400))
    add("identity coding", "\(post)Transfer-Encoding: identity\r\n\r\nhello", .status(400))
    add("gzip last", "\(post)Transfer-Encoding: chunked, gzip\r\n\r\n", .status(400))
    add("gzip then chunked", "\(post)Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", .status(501))
    add("chunked twice", "\(post)Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", .status(400))
    add("chunked on two lines", "\(post)Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", .status(400))
    add("gzip, chunked, chunked", "\(post)Transfer-Encoding: gzip, chunked, chunked\r\n\r\n0\r\n\r\n", .status(400))
    add("Transfer-Encoding in HTTP/1.0", "POST /echo HTTP/1.0\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", .status(400))
    add("space before the colon of Transfer-Encoding", "\(post)Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n", .status(400))
    add("huge length", "\(post)Content-Length: 99999999999999999999999\r\n\r\n", .status(413))
    add("length over the limit", "\(post)Content-Length: 1025\r\n\r\n", .status(413))
    add("unknown expectation", "\(post)Content-Length: 5\r\nExpect: 200-ok\r\n\r\nhello", .status(417))
    add("unknown expectation after 100-continue", "\(post)Content-Length: 5\r\nExpect: 100-continue, 200-ok\r\n\r\nhello", .status(417))
    add("unknown expectation in a second Expect", "\(post)Content-Length: 5\r\nExpect: 100-continue\r\nExpect: 200-ok\r\n\r\nhello", .status(417))

    // Chunked bodies.
    let chunked = "\(post)Transfer-Encoding: chunked\r\n\r\n"
    let badSizes = ["zz", "-1", "", " 5", "0x5", "fffffffffffffffffff", "5 5", "+5", ";ext", "\u{B9}"]
    for size in badSizes {
        add("chunk size \(size.debugDescription)", "\(chunked)\(size)\r\nhello\r\n0\r\n\r\n", .status(400))
    }
    add("chunk without its CR LF", "\(chunked)5\r\nhelloXX0\r\n\r\n", .status(400))
    add("chunk longer than its size", "\(chunked)3\r\nhello\r\n0\r\n\r\n", .status(400))
    add("chunk over the body limit", "\(chunked)401\r\n", .status(413))
    add("chunks over the body limit together", "\(chunked)200\r\n\(String(repeating: "a", count: 512))\r\n201\r\n", .status(413))
    add("chunk size line too long", "\(chunked)5;\(String(repeating: "e", count: 5_000))\r\nhello\r\n0\r\n\r\n", .status(400))
    add("too many trailers", "\(chunked)0\r\n" + (0..<30).map { "T-\($0): v\r\n" }.joined() + "\r\n", .status(431))
    let badChunkedLines = [
        "5\nhello\r\n0\r\n\r\n", "5\r\nhello\r\n0\n\n", "5;a\rb\r\nhello\r\n0\r\n\r\n", "5\r\nhello\r\n0\r\nX-T: a\r\n b\r\n\r\n",
        "5\r\nhello\r0\r\n\r\n", "5;a@b\r\nhello\r\n0\r\n\r\n", "5;a=\"b\r\nhello\r\n0\r\n\r\n", "5;a=\"b\u{01}\"\r\nhello\r\n0\r\n\r\n",
        "5\r\nhello\r\n0\r\n\tX-T: a\r\n\r\n", "5\r\nhello\r\n0\r\nX-T: a\u{7F}\r\n\r\n", "5\r\nhello\r\n0\r\n: a\r\n\r\n",
    ]
    for body in badChunkedLines {
        add("chunked body \(body.debugDescription)", "\(chunked)\(body)", .status(400))
    }
    add("too many trailer bytes", "\(chunked)0\r\nT: \(String(repeating: "v", count: 2_100))\r\n\r\n", .status(431))

    // Oversized heads.
    add("head over the limit", "GET /ok HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "b", count: 3_000))\r\n\r\n", .status(431))
    add("request line over the limit", "GET /\(String(repeating: "a", count: 3_000)) HTTP/1.1\r\n\(host)\r\n", .status(414))
    add("request line over the limit, unfinished", "GET /\(String(repeating: "a", count: 3_000))", .status(414))
    add("too many fields", "GET /ok HTTP/1.1\r\n\(host)" + (0..<25).map { "X-\($0): v\r\n" }.joined() + "\r\n", .status(431))
    add("many tiny fields", "GET /ok HTTP/1.1\r\n\(host)" + String(repeating: "A:\r\n", count: 600) + "\r\n", .status(431))

    // Truncated: the client stops sending before the request ends.
    let whole = "\(post)Content-Length: 11\r\n\r\nhello world"
    for cut in stride(from: 1, to: whole.utf8.count, by: 4) {
        addBytes("truncated at byte \(cut)", Array(Array(whole.utf8)[..<cut]), .closed)
    }
    let wholeChunked = "\(chunked)5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
    for cut in stride(from: chunked.utf8.count + 1, to: wholeChunked.utf8.count - 1, by: 3) {
        addBytes("chunked body truncated at byte \(cut)", Array(Array(wholeChunked.utf8)[..<cut]), .closed)
    }
    addBytes("nothing at all", [], .closed)
    add("only empty lines", "\r\n\r\n\r\n", .closed)

    // Random bytes (seeded, so a failure is reproducible).
    var generator = SeededBytes(seed: 0x5EED)
    for index in 0..<20 {
        var bytes = generator.next(count: 1 + index * 37 % 300)
        bytes += [13, 10, 13, 10]
        addBytes("random bytes #\(index)", bytes, .refused)
    }
    addBytes("a TLS ClientHello", [0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00, 0x00, 0xA1, 0x03, 0x03] + generator.next(count: 60) + [13, 10, 13, 10], .refused)

    // Well-formed after all: the scope answers (the echo shows what it read).
    add("equal repeated lengths", "\(post)Content-Length: 5\r\nContent-Length: 005\r\n\r\nhello", .status(200))
    add("tab around a value", "GET /ok HTTP/1.1\r\nHost:\t127.0.0.1:\(port)\t\r\n\r\n", .status(200))
    add("leading empty lines", "\r\n\r\nGET /ok HTTP/1.1\r\n\(host)\r\n", .status(200))
    add("chunk extensions", "\(chunked)5;a=b;c\r\nhello\r\n0;x\r\nTrailer: t\r\n\r\n", .status(200))
    add("Transfer-Encoding: Chunked", "\(post)Transfer-Encoding: Chunked\r\n\r\n0\r\n\r\n", .status(200))
    add("an unmatched request", "GET /nothing HTTP/1.1\r\n\(host)\r\n", .status(599))
    return cases
}

/// Bytes from a fixed seed (SplitMix64).
struct SeededBytes {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(count: Int) -> [UInt8] {
        (0..<count).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
    }
}

@Suite("Served scopes: fuzzed with hostile requests over real sockets", .timeLimit(.minutes(1)))
struct ServingFuzzTests {
    @Test("at least 150 malformed, truncated, oversized and adversarial requests each get the refusal they deserve; the server keeps serving and the scope sees none of them")
    func hostileRequests() async throws {
        var limits = ServingLimits()
        limits.headBytes = 2_048
        limits.headerCount = 20
        limits.bodyBytes = 1_024
        // Far past any delay a loaded machine puts between a connection and its
        // bytes (a 2 s limit once closed a valid request's connection before its
        // client's task got to send, under the address sanitizer): every case is
        // sent whole and half-closed, so none waits for a timeout.
        limits.headTimeout = .seconds(30)
        limits.bodyTimeout = .seconds(30)
        let outcome = await StubScope.withNewScope(name: "fuzz", location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)) { scope in
            await scope.stub(.get("/ok"), with: .text("ok"))
            await scope.stub(.post("/echo")) { request in .data(request.body ?? Data()) }
            let server = try await scope.serve(limits: limits)
            let cases = fuzzCases(port: server.port)
            #expect(cases.count >= 150)
            // Eight connections at a time: a few seconds in all, on two cores.
            try await withThrowingTaskGroup(of: (String, FuzzOutcome, FuzzOutcome, String).self) { group in
                var pending = cases[...]
                func startNext() {
                    guard let next = pending.popFirst() else { return }
                    group.addTask {
                        let connection = try RawConnection(port: server.port)
                        connection.send(next.bytes)
                        connection.finishSending()
                        let response = await connection.response()
                        let closed = await connection.isClosed()
                        let seen: FuzzOutcome = response.map { .status($0.status) } ?? .closed
                        var detail = response?.text ?? ""
                        if response != nil, !closed, (response?.status ?? 0) >= 400 {
                            detail += " [the connection stayed open after a refusal]"
                        }
                        return (next.name, next.outcome, seen, detail)
                    }
                }
                for _ in 0..<8 { startNext() }
                while let (name, expected, seen, detail) = try await group.next() {
                    switch expected {
                    case .refused:
                        let isRefusal = if case let .status(status) = seen { status >= 400 && status < 599 } else { true }
                        #expect(isRefusal, "\(name): \(seen) \(detail)")
                    case .status, .closed:
                        #expect(seen == expected, "\(name): \(seen) \(detail)")
                    }
                    if case let .status(status) = seen, status >= 400, status != 599 {
                        #expect(detail.hasSuffix("\n") && !detail.contains("[the connection"), "\(name): a refusal names its problem and closes: \(detail)")
                    }
                    startNext()
                }
            }
            // Still serving, after all of that.
            let (data, _) = try await plainSession().data(from: server.baseURL.appendingPathComponent("ok"))
            #expect(String(decoding: data, as: UTF8.self) == "ok")
            return await scope.requests.map(\.url.path)
        }
        let paths = try outcome.result.get()
        // Only the well-formed requests reached the scope: 3 echoes, 2 GET /ok, the
        // unmatched one, and the final check.
        #expect(paths.sorted() == ["/echo", "/echo", "/echo", "/nothing", "/ok", "/ok", "/ok"])
        #expect(outcome.problems.count == 1) // The unmatched request.
    }
}
