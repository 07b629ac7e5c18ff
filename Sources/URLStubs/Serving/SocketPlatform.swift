#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few places where POSIX sockets differ between Linux and Apple platforms,
/// kept here so that the rest of the server is written once.
enum SocketPlatform {
    /// `SOCK_STREAM` (an enumeration case with Glibc, a plain constant elsewhere);
    /// on Linux with `SOCK_CLOEXEC`, so that no process spawned meanwhile inherits
    /// the socket between its creation and ``closeOnExec(_:)``.
    static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #elseif canImport(Musl)
        SOCK_STREAM | SOCK_CLOEXEC
        #else
        SOCK_STREAM
        #endif
    }

    /// The flags every `send` is made with: on Linux, `MSG_NOSIGNAL`, so that
    /// writing to a connection the client closed fails with `EPIPE` instead of
    /// raising `SIGPIPE` and ending the test process. (Apple platforms use the
    /// socket option set by ``preventSIGPIPE(on:)`` instead.)
    static var sendFlags: Int32 {
        #if canImport(Glibc) || canImport(Musl)
        Int32(MSG_NOSIGNAL)
        #else
        0
        #endif
    }

    /// Makes writes to `descriptor` after the client left fail with `EPIPE`
    /// rather than raise `SIGPIPE`: `SO_NOSIGPIPE` on Apple platforms (Linux uses
    /// ``sendFlags``).
    static func preventSIGPIPE(on descriptor: Int32) {
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// How many received bytes wait unread on `descriptor` (`FIONREAD`); 0 when
    /// that cannot be told.
    static func queuedBytes(on descriptor: Int32) -> Int {
        #if canImport(Darwin)
        let request: UInt = 0x4004_667F // FIONREAD, `_IOR('f', 127, int)`: a macro Swift does not import.
        #else
        let request = UInt(FIONREAD)
        #endif
        var count: Int32 = 0
        guard ioctl(descriptor, request, &count) == 0 else { return 0 }
        return Int(max(count, 0))
    }

    /// The IPv4 loopback address `127.0.0.1` with `port` (0: any free port).
    static func loopback4(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        return address
    }

    /// The IPv6 loopback address `::1` with `port`.
    static func loopback6(port: UInt16) -> sockaddr_in6 {
        var address = sockaddr_in6()
        #if canImport(Darwin)
        address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
        #endif
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        address.sin6_addr = in6addr_loopback
        return address
    }

    /// Marks `descriptor` close-on-exec: a process the test launches (an app under
    /// test, a helper tool) does not inherit the server's sockets, which would keep
    /// its port taken, and its connections open, after the server stops.
    static func closeOnExec(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
    }

    /// `errno`, read right after the call that failed.
    static var lastError: Int32 {
        errno
    }
}

/// The C functions whose names the server's own methods shadow.
enum Glue {
    static func bind(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Darwin)
        Darwin.bind(descriptor, address, length)
        #elseif canImport(Glibc)
        Glibc.bind(descriptor, address, length)
        #else
        Musl.bind(descriptor, address, length)
        #endif
    }

    static func accept(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?) -> Int32 {
        #if canImport(Darwin)
        Darwin.accept(descriptor, address, length)
        #elseif canImport(Glibc)
        Glibc.accept(descriptor, address, length)
        #else
        Musl.accept(descriptor, address, length)
        #endif
    }

    static func send(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
        #if canImport(Darwin)
        Darwin.send(descriptor, bytes, count, flags)
        #elseif canImport(Glibc)
        Glibc.send(descriptor, bytes, count, flags)
        #else
        Musl.send(descriptor, bytes, count, flags)
        #endif
    }

    static func close(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(descriptor)
        #elseif canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Musl.close(descriptor)
        #endif
    }
}
