#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The parts of a URL that matching compares, normalized once per URL.
///
/// Scheme and host are lowercased, a default port is dropped, an empty path becomes
/// `/`, and the path stays percent-encoded so that a pattern and a request compare
/// the same bytes. Built by scanning the URL's text, without Foundation's parsers.
struct RequestTarget: Sendable {
    var scheme: String
    var host: String
    var port: Int?
    /// The percent-encoded path, never empty.
    var path: String
    /// The percent-encoded query after `?`; `nil` when the URL has no `?`.
    var query: Substring?

    /// The key under which exact stubs for this origin and path are indexed.
    let routeKey: String

    /// Creates a target from its parts; `routeKey`, when given, must be what this
    /// initializer would build from them.
    init(scheme: String, host: String, port: Int?, path: String, query: Substring?, routeKey: String? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port == Self.defaultPort(for: scheme) ? nil : port
        self.path = path.isEmpty ? "/" : path
        self.query = query
        if let routeKey {
            self.routeKey = routeKey
            return
        }
        var key = scheme + "://" + host
        if let port = self.port {
            key += ":" + String(port)
        }
        self.routeKey = key + self.path
    }

    /// The target of `url`, or `nil` when it has no scheme or host.
    init?(_ url: URL) {
        self.init(absoluteString: url.absoluteString)
    }

    /// The target of the absolute URL `text`, or `nil` when it has no scheme or host.
    init?(absoluteString text: String) {
        guard let parts = URLText.split(text[...]) else { return nil }
        let (host, portText) = URLText.splitPort(parts.hostAndPort)
        guard !host.isEmpty else { return nil }
        var port: Int?
        if let portText, !portText.isEmpty {
            guard let number = Int(portText) else { return nil }
            port = number
        }
        self.init(parts: parts, host: host, portText: portText, port: port, path: String(parts.path), query: parts.query, pathIsWritten: true)
    }

    /// Creates the target of the split absolute URL text `parts`, whose host and
    /// port text are `host` and `portText`, matching `path` and `query`.
    ///
    /// `pathIsWritten` says whether `path` is `parts.path` as written. Most URLs are
    /// written in normal form already (lowercase scheme and host, no port, no user,
    /// a path): then the route key is their text up to the path's end, one copy
    /// instead of a concatenation.
    init(parts: URLText.Parts, host: Substring, portText: Substring?, port: Int?, path: String, query: Substring?, pathIsWritten: Bool) {
        let (scheme, schemeWasLowercase) = URLText.lowercased(parts.scheme)
        let (normalHost, hostWasLowercase) = URLText.lowercased(host)
        let isNormal = pathIsWritten && portText == nil && !parts.hasUserInfo && !parts.path.isEmpty
            && schemeWasLowercase && hostWasLowercase
        let written = parts.scheme.base[parts.scheme.startIndex..<parts.path.endIndex]
        self.init(scheme: scheme, host: normalHost, port: port, path: path, query: query, routeKey: isNormal ? String(written) : nil)
    }

    /// The query items in order of appearance, decoded; `nil` when the URL has no `?`.
    var queryItems: [QueryItem]? {
        query.map(URLText.queryItems)
    }

    static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}
