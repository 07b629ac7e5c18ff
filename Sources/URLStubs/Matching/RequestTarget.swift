#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The parts of a URL that matching compares, normalized once per URL.
///
/// Scheme and host are lowercased, a default port is dropped, an empty path becomes
/// `/`, and the path stays percent-encoded, its escapes in normal form (uppercase
/// hex digits, unreserved characters unescaped), so that a pattern and a request
/// compare the same bytes. Built by scanning the URL's text, without Foundation's parsers.
///
/// A class, and immutable: a request's target is read by every stage of its
/// resolution and kept by the reuse slot, and a copy is then one retain instead of
/// one per string.
final class RequestTarget: Sendable {
    let scheme: String
    let host: String
    let port: Int?
    /// The percent-encoded path, never empty.
    let path: String
    /// The percent-encoded query after `?`; `nil` when the URL has no `?`.
    let query: Substring?

    /// The key under which exact stubs for this origin and path are indexed.
    let routeKey: String

    /// Creates a target from its parts; `routeKey`, when given, must be what this
    /// initializer would build from them.
    init(scheme: String, host: String, port: Int?, path: String, query: Substring?, routeKey: String? = nil) {
        self.scheme = scheme
        self.host = host
        // Most URLs name no port: the scheme's default is then not looked up.
        self.port = port.flatMap { $0 == Self.defaultPort(for: scheme) ? nil : $0 }
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

    /// The target of the absolute URL `text`, or `nil` when it has no scheme or host.
    static func of(absoluteString text: String) -> RequestTarget? {
        inNormalForm(text) ?? RequestTarget(parsing: text)
    }

    /// The target of the absolute URL `text` however it is written, or `nil` when
    /// it has no scheme or host: the general parse, which ``of(absoluteString:)``
    /// skips for a URL in normal form.
    convenience init?(parsing text: String) {
        guard let parts = URLText.split(text[...]) else { return nil }
        let (host, portText) = URLText.splitPort(parts.hostAndPort)
        guard !host.isEmpty else { return nil }
        var port: Int?
        if let portText, !portText.isEmpty {
            guard let number = Int(portText) else { return nil }
            port = number
        }
        // Escapes in normal form, so that `%2f` matches `%2F`, and `%7E` matches `~`.
        let path = URLText.percentEncoded(parts.path) { $0 != UInt8(ascii: "%") }
        self.init(parts: parts, host: host, portText: portText, port: port, path: path, query: parts.query, pathIsWritten: path.utf8.elementsEqual(parts.path.utf8))
    }

    /// Creates the target of the split absolute URL text `parts`, whose host and
    /// port text are `host` and `portText`, matching `path` and `query`.
    ///
    /// `pathIsWritten` says whether `path` is `parts.path` as written. Most URLs are
    /// written in normal form already (lowercase scheme and host, no port, no user,
    /// a path): then the route key is their text up to the path's end, one copy
    /// instead of a concatenation.
    convenience init(parts: URLText.Parts, host: Substring, portText: Substring?, port: Int?, path: String, query: Substring?, pathIsWritten: Bool) {
        let (scheme, schemeWasLowercase) = URLText.lowercased(parts.scheme)
        let (normalHost, hostWasLowercase) = URLText.lowercased(host)
        let isNormal = pathIsWritten && portText == nil && !parts.hasUserInfo && !parts.path.isEmpty
            && schemeWasLowercase && hostWasLowercase
        let written = parts.scheme.base[parts.scheme.startIndex..<parts.path.endIndex]
        self.init(scheme: scheme, host: normalHost, port: port, path: path, query: query, routeKey: isNormal ? String(written) : nil)
    }

    /// The target of `text` when it is an absolute URL written in normal form, the
    /// form nearly every request's URL has: a lowercase scheme and host, no user
    /// information, no port, and a path whose escapes are in normal form. Read in
    /// one pass over its bytes, each part
    /// copied out of them once; `nil` for any other text, which the general parse
    /// (``init(parsing:)``) reads.
    static func inNormalForm(_ text: String) -> RequestTarget? {
        var contiguous = text
        contiguous.makeContiguousUTF8() // A bridged string (Apple platforms) is copied once, so that its bytes can be read.
        let text = contiguous
        // Built inside the closure, which hands back one reference: a tuple of
        // strings would be copied out through the runtime's generic witnesses.
        let target = text.utf8.withContiguousStorageIfAvailable { bytes -> RequestTarget? in
            guard let found = normalFormDelimiters(of: bytes) else { return nil }
            // Every bound is at an ASCII delimiter, so each part is whole UTF-8. The
            // bytes of a part are pointed at directly rather than sliced, and its
            // bounds are two integers rather than a range: a slice and a range's
            // count are generic code in a debug build. (The text is not empty: it
            // has `://`.)
            let start = bytes.baseAddress!
            func part(from lower: Int, to upper: Int) -> String {
                String(decoding: UnsafeBufferPointer(start: start + lower, count: upper - lower), as: UTF8.self)
            }
            let scheme = UnsafeBufferPointer(start: start, count: found.colon)
            let query: Substring?
            if found.pathEnd < found.queryEnd {
                let utf8 = text.utf8
                query = Substring(utf8[utf8.index(utf8.startIndex, offsetBy: found.pathEnd + 1)..<utf8.index(utf8.startIndex, offsetBy: found.queryEnd)])
            } else {
                query = nil
            }
            return RequestTarget(
                scheme: Self.spells(scheme, "https") ? "https" : Self.spells(scheme, "http") ? "http" : part(from: 0, to: found.colon),
                host: part(from: found.hostStart, to: found.authorityEnd),
                port: nil,
                path: part(from: found.authorityEnd, to: found.pathEnd),
                query: query,
                // A URL that ends with its path is its own route key: shared, not copied.
                routeKey: found.pathEnd == bytes.count ? text : part(from: 0, to: found.pathEnd)
            )
        }
        return target ?? nil
    }

    /// The delimiters of `bytes` when they are an absolute URL in normal form (see
    /// ``inNormalForm(_:)``), with a path; `nil` otherwise. Reads the bytes once
    /// and copies nothing out of them.
    static func normalFormDelimiters(of bytes: UnsafeBufferPointer<UInt8>) -> URLText.Delimiters? {
        guard let found = URLText.Delimiters(scanning: bytes), !found.hasUserInfo, found.authorityEnd > found.hostStart,
              found.pathEnd > found.authorityEnd // A path, so the route key is the text up to its end.
        else { return nil }
        // Index loops and bounds in locals: in a debug build (where tests run) a
        // loop over a slice is a generic call for each byte.
        let upperA = UInt8(ascii: "A"), upperZ = UInt8(ascii: "Z"), colon = UInt8(ascii: ":"), bracket = UInt8(ascii: "[")
        var index = 0
        while index < found.colon {
            let byte = bytes[index]
            if byte >= upperA && byte <= upperZ {
                return nil
            }
            index += 1
        }
        index = found.hostStart
        while index < found.authorityEnd {
            // A port (or an IPv6 literal, whose colons the general parse tells apart) or an uppercase letter.
            let byte = bytes[index]
            if byte == colon || byte == bracket || (byte >= upperA && byte <= upperZ) {
                return nil
            }
            index += 1
        }
        // A path escape written other than in normal form (`%2f`, `%7E`): the
        // general parse writes it so.
        if found.firstPercentInPath >= 0,
           URLText.hasEscapeToNormalize(UnsafeBufferPointer(rebasing: bytes[found.firstPercentInPath..<found.pathEnd])) {
            return nil
        }
        return found
    }

    /// Whether `bytes` are exactly the ASCII letters of `word`.
    private static func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let letters = word.utf8Start
        var index = 0
        while index < bytes.count {
            if bytes[index] != letters[index] {
                return false
            }
            index += 1
        }
        return true
    }

    /// The query items in order of appearance, decoded; `nil` when the URL has no `?`.
    var queryItems: [QueryItem]? {
        query.map(URLText.queryItems)
    }

    /// The query items as replaying compares them with a recorded query's
    /// (``URLText/listItems(_:)``); `nil` when the URL has no `?`.
    var listItems: [QueryItem]? {
        query.map(URLText.listItems)
    }

    static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}
