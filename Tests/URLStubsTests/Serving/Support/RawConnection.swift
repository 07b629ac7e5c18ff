#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A client connection written byte by byte, to say to a served scope exactly
/// what a broken, slow or hostile client would: no HTTP library in between.
///
/// Its reads block, so the async ones run on a thread of their own: a test
/// blocking the cooperative pool (two threads on two cores) would starve the
/// tasks that produce the server's deferred answers.
final class RawConnection: @unchecked Sendable {
    // @unchecked: used by one test at a time, never from two threads at once.
    /// One response as read off the wire.
    struct Response: Sendable {
        let status: Int
        let fields: [(name: String, value: String)]
        let body: Data

        /// The first value of the field `name`, compared without case.
        func field(_ name: String) -> String? {
            fields.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var text: String {
            String(decoding: body, as: UTF8.self)
        }
    }

    struct ConnectFailure: Error {
        let code: Int32
    }

    let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port` (or `[::1]:port`).
    init(port: UInt16, ipv6: Bool = false) throws {
        descriptor = try Self.connected(port: port, ipv6: ipv6)
    }

    /// A socket connected to the loopback `port`. A failure closes the socket
    /// here, before any `RawConnection` owns it: closing a number twice may close
    /// another test's socket that got it in between.
    private static func connected(port: UInt16, ipv6: Bool) throws -> Int32 {
        #if canImport(Glibc)
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ConnectFailure(code: errno) }
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let connected: Int32
        if ipv6 {
            var address = sockaddr_in6()
            #if canImport(Darwin)
            address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw ConnectFailure(code: code)
        }
        return descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Sends `bytes`; `false` when the server closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, flags) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Sends `text` as UTF-8.
    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Closes the sending side: the server sees the end of the stream.
    func finishSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Reads more bytes, waiting up to `deadline`; `false` at the end of the stream or the deadline.
    private func receive(until deadline: ContinuousClock.Instant) -> Bool {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
        guard poll(&entry, 1, milliseconds) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 64 * 1_024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    /// Whether `text` arrived within `timeout` (it stays unread, for ``response(within:isHead:)``).
    func received(_ text: String, within timeout: Duration = .patience) async -> Bool {
        await offThePool {
            let deadline = ContinuousClock.now + timeout
            while String(decoding: self.buffer, as: UTF8.self).range(of: text) == nil {
                guard self.receive(until: deadline) else { return false }
            }
            return true
        }
    }

    /// How the server ended the connection, read to its end within `timeout`:
    /// `true` for a reset, `false` for a close that ends the stream well, `nil`
    /// when it did not end in time.
    func endedWithReset(within timeout: Duration = .patience) async -> Bool? {
        await offThePool {
            let deadline = ContinuousClock.now + timeout
            while true {
                var entry = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return nil }
                guard poll(&entry, 1, Int32(left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)) > 0 else { return nil }
                var chunk = [UInt8](repeating: 0, count: 64 * 1_024)
                let count = chunk.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                if count == 0 {
                    return false
                }
                if count < 0 {
                    return errno == ECONNRESET
                }
                self.buffer += chunk[..<count]
            }
        }
    }

    /// The bytes read and not taken by a response yet.
    var bufferedText: String {
        String(decoding: buffer, as: UTF8.self)
    }

    /// Whether the server closed the connection (the stream ends) within `timeout`,
    /// with no more bytes than those already read.
    func isClosed(within timeout: Duration = .patience) async -> Bool {
        await offThePool { self.isClosedNow(within: timeout) }
    }

    private func isClosedNow(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            guard poll(&entry, 1, Int32(left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)) > 0 else { return false }
            var chunk = [UInt8](repeating: 0, count: 64 * 1_024)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                return true
            }
            buffer += chunk[..<count]
        }
    }

    /// Reads one response (its body framed by `Content-Length`, chunks, or the end
    /// of the stream); `nil` when the connection closed or `timeout` passed first.
    /// `isHead`: the response to a `HEAD`, which has no body.
    func response(within timeout: Duration = .patience, isHead: Bool = false) async -> Response? {
        await offThePool { self.responseNow(within: timeout, isHead: isHead) }
    }

    private func responseNow(within timeout: Duration, isHead: Bool) -> Response? {
        let deadline = ContinuousClock.now + timeout
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find([13, 10, 13, 10], in: buffer)
            if headEnd == nil, !receive(until: deadline) { return nil }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeFirst(headEnd! + 4)
        let statusParts = head[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        let fields = head.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let response = { (body: Data) in Response(status: status, fields: fields, body: body) }
        if status == 100 {
            return response(Data())
        }
        if isHead || status == 204 || status == 304 {
            return response(Data())
        }
        if let length = fields.first(where: { $0.name.lowercased() == "content-length" }).flatMap({ Int($0.value) }) {
            while buffer.count < length {
                guard receive(until: deadline) else { return nil }
            }
            defer { buffer.removeFirst(length) }
            return response(Data(buffer[..<length]))
        }
        if fields.contains(where: { $0.name.lowercased() == "transfer-encoding" }) {
            var body = Data()
            while true {
                var lineEnd = Self.find([13, 10], in: buffer)
                while lineEnd == nil {
                    guard receive(until: deadline) else { return nil }
                    lineEnd = Self.find([13, 10], in: buffer)
                }
                let size = Int(String(decoding: buffer[..<lineEnd!], as: UTF8.self), radix: 16) ?? -1
                guard size >= 0 else { return nil }
                buffer.removeFirst(lineEnd! + 2)
                while buffer.count < size + 2 {
                    guard receive(until: deadline) else { return nil }
                }
                body += buffer[..<size]
                buffer.removeFirst(size + 2)
                if size == 0 { return response(body) }
            }
        }
        while receive(until: deadline) {}
        defer { buffer.removeAll() }
        return response(Data(buffer))
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

/// Runs the blocking `work` on a thread of its own and returns its result.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
