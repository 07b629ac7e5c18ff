#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import URLStubs

/// The socket's deadlines judge when bytes arrived, not when the connection's
/// thread got around to looking: on a loaded machine a thread may not run for
/// seconds, and a client that sent in time must not get a 408 for it.
@Suite("A connection's deadlines")
struct ConnectionSocketDeadlineTests {
    /// A connected pair of local stream sockets: the server's end and the client's.
    private static func pair() throws -> (server: Int32, client: Int32) {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends)
        #else
        let made = socketpair(AF_UNIX, SOCK_STREAM, 0, &ends)
        #endif
        try #require(made == 0)
        return (ends[0], ends[1])
    }

    private static func write(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        #expect(sent == bytes.count)
    }

    @Test("a head that arrived before its deadline is read though the deadline passed before the thread looked")
    func bytesInTimeAreRead() throws {
        let (server, client) = try Self.pair()
        defer { close(client) }
        var socket = ConnectionSocket(descriptor: server)
        defer { close(server) }
        Self.write("GET / HTTP/1.1\r\nHost: a\r\n\r\n", to: client)
        let past = ContinuousClock.now - .seconds(1)
        let head = try socket.head(limit: 1_024, idle: past) { _ in past }
        #expect(String(decoding: head.bytes, as: UTF8.self) == "GET / HTTP/1.1\r\nHost: a")
        #expect(!head.bareLineFeed)
    }

    @Test("past the deadline, a head still missing its end times out at once, without waiting")
    func missingBytesTimeOut() throws {
        let (server, client) = try Self.pair()
        defer { close(client) }
        var socket = ConnectionSocket(descriptor: server)
        defer { close(server) }
        Self.write("GET / HTTP/1.1\r\n", to: client)
        let past = ContinuousClock.now - .seconds(1)
        let started = ContinuousClock.now
        #expect(throws: ConnectionSocket.ReadEnd.timedOut) {
            _ = try socket.head(limit: 1_024, idle: past) { _ in past }
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(socket.hasStartOfRequest)
    }
}
