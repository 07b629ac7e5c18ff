#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX socket calls ``LocalServer`` makes, with the few differences between
/// Glibc and Darwin kept here.
enum Socket {
    /// A socket call that failed, with the call's name and `errno`.
    struct Failure: Error, CustomStringConvertible {
        /// The name of the call, such as `bind`.
        let call: String
        /// The `errno` it left.
        let code: Int32

        /// The call, the system's text for the error and its number.
        var description: String { "\(call) failed: \(String(cString: strerror(code))) (errno \(code))" }
    }

    /// Opens a TCP socket listening on 127.0.0.1 at a port the system picks, and
    /// returns it with that port.
    static func listenOnLoopback() throws -> (descriptor: Int32, port: UInt16) {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        do {
            try setOption(SO_REUSEADDR, to: Int32(1), on: descriptor)
            var address = sockaddr_in()
            #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            guard bound == 0 else { throw Failure(call: "bind", code: errno) }
            guard listen(descriptor, 64) == 0 else { throw Failure(call: "listen", code: errno) }
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            guard named == 0 else { throw Failure(call: "getsockname", code: errno) }
            return (descriptor, UInt16(bigEndian: address.sin_port))
        } catch {
            closeDescriptor(descriptor)
            throw error
        }
    }

    /// Makes a pipe whose write end wakes a thread waiting in
    /// ``waitForConnection(on:wake:)``.
    static func makePipe() throws -> (reader: Int32, writer: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Failure(call: "pipe", code: errno) }
        return (ends[0], ends[1])
    }

    /// Waits until `listener` has a connection to accept (true) or `wake` becomes
    /// readable or fails (false).
    ///
    /// A pipe, not `shutdown()`, wakes the accept loop: Linux wakes a thread
    /// blocked in `accept` when the listener is shut down, Darwin does not.
    static func waitForConnection(on listener: Int32, wake: Int32) -> Bool {
        var watched = [
            pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&watched, nfds_t(watched.count), -1)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0 && watched[1].revents == 0 && watched[0].revents & Int16(POLLIN) != 0
        }
    }

    /// Wakes the thread waiting in ``waitForConnection(on:wake:)`` on the read end
    /// of the pipe whose write end is `writer`.
    static func wake(_ writer: Int32) {
        let byte: [UInt8] = [1]
        _ = byte.withUnsafeBytes { write(writer, $0.baseAddress, 1) }
    }

    /// Accepts a connection waiting on `listener`, or returns `nil` with `errno` set.
    static func acceptConnection(on listener: Int32) -> Int32? {
        let descriptor = accept(listener, nil, nil)
        return descriptor >= 0 ? descriptor : nil
    }

    /// Makes reads and writes on a connection give up after `seconds`, and (on
    /// Darwin) writes to a closed peer fail instead of raising `SIGPIPE`.
    static func configureConnection(_ descriptor: Int32, timeout seconds: Int) {
        let limit = timeval(tv_sec: seconds, tv_usec: 0)
        try? setOption(SO_RCVTIMEO, to: limit, on: descriptor)
        try? setOption(SO_SNDTIMEO, to: limit, on: descriptor)
        #if canImport(Darwin)
        try? setOption(SO_NOSIGPIPE, to: Int32(1), on: descriptor)
        #endif
    }

    /// Receives at most `capacity` bytes; `nil` at the end of the stream, on an
    /// error, on a timeout, or once the socket was shut down.
    static func receive(from descriptor: Int32, capacity: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: capacity)
        while true {
            let count = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, capacity, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            return Array(bytes[..<count])
        }
    }

    /// Sends all of `bytes`; false when the peer is gone, a send timed out or the
    /// socket was shut down (never `SIGPIPE`: `MSG_NOSIGNAL` on Linux,
    /// `SO_NOSIGPIPE` on Darwin).
    @discardableResult
    static func sendAll(_ bytes: [UInt8], on descriptor: Int32) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + sent, bytes.count - sent, flags)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Shuts down both directions of `descriptor`, so a thread blocked reading or
    /// writing it returns at once; the descriptor stays open.
    static func shutDown(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Closes `descriptor`.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Sets the socket-level option `name` of `descriptor` to `value`.
    private static func setOption<Value: BitwiseCopyable>(_ name: Int32, to value: Value, on descriptor: Int32) throws {
        let result = withUnsafeBytes(of: value) {
            setsockopt(descriptor, SOL_SOCKET, name, $0.baseAddress, socklen_t($0.count))
        }
        guard result == 0 else { throw Failure(call: "setsockopt", code: errno) }
    }
}
