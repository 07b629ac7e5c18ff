#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The listening sockets of one server: `127.0.0.1` on a port the system
/// chooses, and `[::1]` on the same port where IPv6 is available. Nothing else
/// is ever bound: the server is reachable from this machine only.
struct ListenerSocket {
    /// The IPv4 listening socket.
    let ipv4: Int32
    /// The IPv6 listening socket, `nil` where `::1` could not be bound.
    let ipv6: Int32?
    /// The port both listen on.
    let port: UInt16

    /// Why no listener could be opened: the failing call and its `errno`.
    struct Failure: Error {
        let call: String
        let code: Int32
    }

    /// Binds and listens; the IPv6 socket is tried on the port the IPv4 one got,
    /// a few times over if another process holds that port on `::1`.
    static func open(backlog: Int32) throws(Failure) -> ListenerSocket {
        var lastFailure = Failure(call: "bind", code: 0)
        for _ in 0..<8 {
            let ipv4 = try bind(family: AF_INET, port: 0, backlog: backlog)
            let port: UInt16
            do {
                port = try boundPort(of: ipv4)
            } catch {
                close(ipv4)
                throw error
            }
            do {
                let ipv6 = try bind(family: AF_INET6, port: port, backlog: backlog)
                return ListenerSocket(ipv4: ipv4, ipv6: ipv6, port: port)
            } catch let failure where failure.code == EADDRINUSE {
                close(ipv4) // Taken on ::1 by someone else: try another port.
                lastFailure = failure
            } catch {
                // No IPv6 loopback here (EAFNOSUPPORT, EADDRNOTAVAIL): IPv4 only.
                return ListenerSocket(ipv4: ipv4, ipv6: nil, port: port)
            }
        }
        throw lastFailure
    }

    /// A non-blocking socket of `family` bound to its loopback address and `port`,
    /// listening.
    private static func bind(family: Int32, port: UInt16, backlog: Int32) throws(Failure) -> Int32 {
        let descriptor = socket(family, SocketPlatform.streamType, 0)
        guard descriptor >= 0 else { throw Failure(call: "socket", code: SocketPlatform.lastError) }
        SocketPlatform.closeOnExec(descriptor)
        var on: Int32 = 1
        if family == AF_INET6 {
            // Only ::1, never IPv4 traffic mapped onto it.
            _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound: Int32
        if family == AF_INET {
            var address = SocketPlatform.loopback4(port: port)
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glue.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        } else {
            var address = SocketPlatform.loopback6(port: port)
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glue.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        guard bound == 0 else {
            let code = SocketPlatform.lastError
            close(descriptor)
            throw Failure(call: "bind", code: code)
        }
        guard listen(descriptor, backlog) == 0 else {
            let code = SocketPlatform.lastError
            close(descriptor)
            throw Failure(call: "listen", code: code)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return descriptor
    }

    /// The port the system gave `descriptor`.
    private static func boundPort(of descriptor: Int32) throws(Failure) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { throw Failure(call: "getsockname", code: SocketPlatform.lastError) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// The sockets to wait on.
    var descriptors: [Int32] {
        [ipv4] + (ipv6.map { [$0] } ?? [])
    }

    /// Accepts one waiting connection on `descriptor`, as a blocking socket;
    /// `nil` when none is waiting.
    static func accept(on descriptor: Int32) -> Int32? {
        let connection = Glue.accept(descriptor, nil, nil)
        guard connection >= 0 else { return nil }
        SocketPlatform.closeOnExec(connection)
        // Accepted sockets inherit O_NONBLOCK on some systems: the connection blocks, with poll deadlines.
        _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) & ~O_NONBLOCK)
        SocketPlatform.preventSIGPIPE(on: connection)
        var on: Int32 = 1
        _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return connection
    }

    /// Closes both sockets.
    func close() {
        for descriptor in descriptors {
            _ = Glue.close(descriptor)
        }
    }

    private static func close(_ descriptor: Int32) {
        _ = Glue.close(descriptor)
    }
}
