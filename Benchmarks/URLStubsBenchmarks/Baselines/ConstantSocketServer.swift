#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation

/// The smallest HTTP/1.1 server that can stand as a baseline for a served scope:
/// it listens on 127.0.0.1, gives each connection a thread, reads each request
/// head (no bodies: the benchmark sends GETs) and answers every one with the same
/// bytes, keeping the connection alive. No parsing, no limits, no resolution.
final class ConstantSocketServer: @unchecked Sendable {
    // @unchecked: `listener` and `response` are set in init and only read after;
    // `isStopped` is only read and written while `lock` is held.
    let port: UInt16
    private let listener: Int32
    private let response: [UInt8]
    private let lock = NSLock()
    private var isStopped = false

    /// Starts answering every request with status 200 and `body`.
    init(body: Data) {
        #if canImport(Glibc)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        self.listener = listener
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        _ = listen(listener, 128)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let response = Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + Array(body)
        self.response = response
        Thread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                var on: Int32 = 1
                _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                Thread { Self.serve(connection, answering: response) }.start()
            }
        }.start()
    }

    /// The base URL: `http://127.0.0.1:<port>`.
    var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Answers each request head that arrives on `connection`, until it closes.
    private static func serve(_ connection: Int32, answering response: [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1_024)
        var pending: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            pending += buffer[..<count]
            while let end = headEnd(in: pending) {
                pending.removeFirst(end)
                #if canImport(Glibc)
                let flags = Int32(MSG_NOSIGNAL)
                #else
                let flags: Int32 = 0
                #endif
                _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) }
            }
        }
        close(connection)
    }

    /// The index just past the first `CR LF CR LF` in `bytes`.
    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    /// Stops accepting connections (open ones end when their clients close).
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return }
        isStopped = true
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
