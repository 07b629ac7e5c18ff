import Foundation

/// The names a served scope answers to: a loopback address or `localhost`, with
/// the server's port. Any other `Host` is refused, so that a web page that
/// rebinds its own domain name to 127.0.0.1 (DNS rebinding) cannot read stubs.
enum LoopbackHost {
    /// Whether `host`, a `Host` header (or the authority of an absolute request
    /// target), names this server on `port`.
    static func isAccepted(_ host: String, port: UInt16) -> Bool {
        let suffix = ":\(port)"
        guard host.hasSuffix(suffix) else { return false }
        let name = host.dropLast(suffix.count)
        return name.equalsIgnoringASCIICase("127.0.0.1") || name.equalsIgnoringASCIICase("localhost") || name == "[::1]"
    }

    /// The authority of an absolute-form request target (`http://host:port/path`),
    /// with its path and query; `nil` for an origin-form target (`/path`).
    static func split(absolute target: String) -> (authority: String, path: String)? {
        guard let schemeEnd = target.range(of: "://") else { return nil }
        let rest = target[schemeEnd.upperBound...]
        let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let path = rest[pathStart...]
        return (String(rest[..<pathStart]), path.isEmpty ? "/" : (path.hasPrefix("?") ? "/" + path : String(path)))
    }
}
