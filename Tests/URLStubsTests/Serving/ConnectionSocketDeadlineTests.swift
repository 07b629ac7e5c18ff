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
@Suite("A connection's deadlines", .timeLimit(.minutes(1)))
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

    /// Runs `body` with the server's end of a socket pair whose client end has
    /// sent `text` (and stays open, given to `body` to send more), then closes both ends.
    private static func withSocket(receiving text: String, _ body: (inout ConnectionSocket, _ client: Int32) throws -> Void) throws {
        let (server, client) = try pair()
        defer {
            close(client)
            close(server)
        }
        try #require(Self.sendWhole(text, to: client))
        var socket = ConnectionSocket(descriptor: server)
        try body(&socket, client)
    }

    /// Sends `text` whole on `descriptor`; whether it was.
    private static func sendWhole(_ text: String, to descriptor: Int32) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) } == bytes.count
    }

    @Test("a head that arrived before its deadline is read though the deadline passed before the thread looked")
    func bytesInTimeAreRead() throws {
        try Self.withSocket(receiving: "GET / HTTP/1.1\r\nHost: a\r\n\r\n") { socket, _ in
            let past = ContinuousClock.now - .seconds(1)
            let head = try socket.head(limit: 1_024, idle: past) { _ in past }
            #expect(String(decoding: head.bytes, as: UTF8.self) == "GET / HTTP/1.1\r\nHost: a")
            #expect(!head.bareLineFeed)
        }
    }

    @Test("past the deadline, a head still missing its end times out at once, without waiting")
    func missingBytesTimeOut() throws {
        try Self.withSocket(receiving: "GET / HTTP/1.1\r\n") { socket, _ in
            let past = ContinuousClock.now - .seconds(1)
            let started = ContinuousClock.now
            #expect(throws: ConnectionSocket.ReadEnd.timedOut) {
                _ = try socket.head(limit: 1_024, idle: past) { _ in past }
            }
            #expect(ContinuousClock.now - started < .seconds(30)) // Generous: a loaded machine may pause the thread.
            #expect(socket.hasStartOfRequest)
        }
    }

    @Test("bytes that arrive after a deadline was found passed are not read for it: a client that keeps sending is still cut off")
    func bytesAfterTheLateLookAreNotRead() throws {
        try Self.withSocket(receiving: "\r\n\r\nGET / HTTP/1.1\r\n") { socket, client in
            let past = ContinuousClock.now - .seconds(1)
            var sentLate = false
            #expect(throws: ConnectionSocket.ReadEnd.timedOut) {
                // The first byte of the request is seen after the deadline was found
                // passed: the rest of the head, sent now, came too late for it.
                _ = try socket.head(limit: 1_024, idle: past) { _ in
                    sentLate = Self.sendWhole("Host: a\r\n\r\n", to: client)
                    return past
                }
            }
            #expect(sentLate)
            #expect(socket.hasStartOfRequest)
        }
    }
}
