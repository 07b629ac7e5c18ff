#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The parts of a URL that matching compares, normalized once per URL.
///
/// Scheme and host are lowercased, a default port is dropped, an empty path becomes
/// `/`, and the path stays percent-encoded so that a pattern and a request compare
/// the same bytes.
struct RequestTarget: Sendable {
    var scheme: String
    var host: String
    var port: Int?
    /// The percent-encoded path, never empty.
    var path: String
    /// The query items in order of appearance; `nil` when the URL has no `?`.
    var queryItems: [URLQueryItem]?

    /// The key under which exact stubs for this origin and path are indexed.
    let routeKey: String

    init(scheme: String, host: String, port: Int?, path: String, queryItems: [URLQueryItem]?) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port == Self.defaultPort(for: self.scheme) ? nil : port
        self.path = path.isEmpty ? "/" : path
        self.queryItems = queryItems
        var key = self.scheme + "://" + self.host
        if let port = self.port {
            key += ":" + String(port)
        }
        routeKey = key + self.path
    }

    /// The target of `url`, or `nil` when it has no scheme or host.
    init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme,
              let host = components.host
        else {
            return nil
        }
        self.init(
            scheme: scheme,
            host: host,
            port: components.port,
            path: components.percentEncodedPath,
            queryItems: components.queryItems
        )
    }

    static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}
