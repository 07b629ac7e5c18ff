#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@_spi(Integration) import URLStubs

/// What Documentation/Serving.md promises a served scope's clients, each claim
/// held by a test of its own.
@Suite("Served scopes: what the guide promises", .timeLimit(.minutes(1)))
struct ServedPromisesTests {
    @Test("a client that half-closes once its request is sent is taken as gone: a delayed answer is never sent")
    func halfCloseCancelsAWaitingAnswer() async throws {
        // A manual clock: the answer's time comes only once the server has taken
        // the client as gone, however long a loaded machine holds its thread back.
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get("/slow"), with: .text("late").delayed(by: .milliseconds(300)))
            let server = try await scope.serve()
            let connection = try RawConnection(port: server.port)
            connection.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            connection.finishSending() // Still reading.
            try await eventually { await scope.exchanges.map(ExchangeLogTests.summary) == ["/slow cancelled"] }
            #expect(await scope.exchanges.map(ExchangeLogTests.summary) == ["/slow cancelled"])
            await clock.advance(by: .milliseconds(300))
            #expect(await connection.response() == nil)
            #expect(connection.bufferedText.isEmpty)
        }
    }

    @Test("a stub used up, and a stub that forbids the request, are answered with 599 over a served scope")
    func usedUpAndForbiddenGet599() async throws {
        let outcome = await StubScope.withNewScope(name: "refusals", location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)) { scope in
            await scope.stub(.get("/once"), with: .text("one"), times: .once)
            await scope.stub(.get("/never"), with: .text("no"), times: .never)
            let server = try await scope.serve()
            let session = plainSession()
            func status(_ path: String) async throws -> Int {
                HTTPURLResponse.status(of: try await session.data(from: server.baseURL.appendingPathComponent(path)).1)
            }
            let first = try await status("once")
            let second = try await status("once")
            let never = try await status("never")
            return [first, second, never]
        }
        #expect(try outcome.result.get() == [200, 599, 599])
    }

    @Test("each serve() call starts a server with a port of its own")
    func eachCallHasItsOwnPort() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("/hello"), with: .text("hi"))
            let first = try await scope.serve()
            let second = try await scope.serve()
            #expect(first.port != second.port)
            for server in [first, second] {
                let (data, _) = try await plainSession().data(from: server.baseURL.appendingPathComponent("hello"))
                #expect(String(decoding: data, as: UTF8.self) == "hi")
            }
        }
    }

    @Test("when the scope ends, an idle keep-alive connection closes (long before its idle timeout)")
    func scopeEndClosesIdleConnections() async throws {
        var limits = ServingLimits()
        limits.idleTimeout = .seconds(600)
        let connection = try await withStubScope { scope in
            await scope.stub(.get("/hello"), with: .text("hi"))
            let server = try await scope.serve(limits: limits)
            let connection = try RawConnection(port: server.port)
            connection.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            #expect(await connection.response()?.status == 200)
            return connection
        }
        #expect(await connection.isClosed())
    }

    @Test("a fixed answer is sent with Content-Length, not chunked")
    func fixedAnswerHasContentLength() async throws {
        try await withEchoServer { server, _ in
            let connection = try RawConnection(port: server.port)
            connection.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            let response = await connection.response()
            #expect(response?.field("Content-Length") == "2")
            #expect(response?.field("Transfer-Encoding") == nil)
        }
    }

    #if canImport(Glibc)
    @Test("the server binds loopback addresses only: a non-loopback address of this machine refuses the connection")
    func loopbackOnly() async throws {
        var addresses: UnsafeMutablePointer<ifaddrs>?
        try #require(getifaddrs(&addresses) == 0)
        defer { freeifaddrs(addresses) }
        var external: in_addr?
        var cursor = addresses
        while let current = cursor {
            if let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) {
                let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                if UInt32(bigEndian: ipv4.s_addr) >> 24 != 127 { external = ipv4; break }
            }
            cursor = current.pointee.ifa_next
        }
        guard let external else { return } // No other interface here.
        try await withEchoServer { server, _ in
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = server.port.bigEndian
            address.sin_addr = external
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            #expect(result == -1)
        }
    }
    #endif
}
