#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A parsed URL pattern: an origin (or none, for a path-only pattern), a path of
/// literal and template segments, and optionally the exact query it requires.
struct URLPattern: Sendable {
    enum Segment: Sendable, Equatable {
        /// A percent-encoded segment that must be equal.
        case literal(String)
        /// `{name}`: any one non-empty segment, captured as a path parameter.
        case parameter(String)
        /// `*`: any one non-empty segment.
        case wildcard
        /// `**` as the last segment: any remainder of the path, even empty.
        case rest
    }

    /// The pattern as the user wrote it.
    let source: String
    /// The origin to match; `nil` for a path-only pattern such as `/users/{id}`.
    let origin: RequestTarget?
    let segments: [Segment]
    /// The query items required exactly (in any order), when the pattern has a `?`.
    let query: [URLQueryItem]?

    /// The exact-index key when the pattern names an origin and a literal path.
    var routeKey: String? {
        guard let origin, isLiteral else { return nil }
        return origin.routeKey
    }

    private var isLiteral: Bool {
        segments.allSatisfy { if case .literal = $0 { true } else { false } }
    }

    /// Parses `source`, throwing a sentence that says what is wrong with it.
    init(parsing source: String) throws(PatternError) {
        self.source = source
        let trimmed = source.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw PatternError("the URL pattern is empty")
        }
        guard trimmed == source else {
            throw PatternError("the URL pattern \"\(source)\" has leading or trailing spaces")
        }
        if source.hasPrefix("/") {
            let (path, query) = Self.splitQuery(source)
            origin = nil
            segments = try Self.parseSegments(path, in: source)
            if let query {
                self.query = try Self.parseQuery(query, in: source)
            } else {
                self.query = nil
            }
            return
        }
        // Template braces are not valid URL characters: hide them while parsing.
        let escaped = source.replacingOccurrences(of: "{", with: Self.openMark).replacingOccurrences(of: "}", with: Self.closeMark)
        guard let components = URLComponents(string: escaped) else {
            throw PatternError("\"\(source)\" is not a valid URL")
        }
        guard let scheme = components.scheme, !scheme.isEmpty else {
            throw PatternError("\"\(source)\" has no scheme: write an absolute URL such as https://api.example.com/path, or a path starting with /")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PatternError("\"\(source)\" has no host: write an absolute URL such as https://api.example.com/path, or a path starting with /")
        }
        if components.fragment != nil {
            throw PatternError("\"\(source)\" has a fragment (#...), which is never sent to a server")
        }
        let path = components.percentEncodedPath
            .replacingOccurrences(of: Self.openMark, with: "{").replacingOccurrences(of: Self.closeMark, with: "}")
        origin = RequestTarget(scheme: scheme, host: host, port: components.port, path: path, queryItems: nil)
        segments = try Self.parseSegments(path.isEmpty ? "/" : path, in: source)
        query = components.percentEncodedQuery.map { _ in components.queryItems ?? [] }
    }

    /// URL-safe stand-ins for `{` and `}` while the rest of the URL is parsed, so
    /// that a percent-encoded `%7B` in a pattern stays a literal brace.
    private static let openMark = "URLSTUBS-OPEN-7B"
    private static let closeMark = "URLSTUBS-CLOSE-7D"

    private static func splitQuery(_ source: String) -> (path: String, query: String?) {
        guard let mark = source.firstIndex(of: "?") else { return (source, nil) }
        return (String(source[..<mark]), String(source[source.index(after: mark)...]))
    }

    private static func parseQuery(_ query: String, in source: String) throws(PatternError) -> [URLQueryItem] {
        var components = URLComponents()
        components.percentEncodedQuery = query
        return components.queryItems ?? []
    }

    private static func parseSegments(_ path: String, in source: String) throws(PatternError) -> [Segment] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var segments: [Segment] = []
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            if part == "**" {
                guard isLast else {
                    throw PatternError("\"\(source)\" uses ** before the end of the path; ** matches the rest of the path and must come last")
                }
                segments.append(.rest)
            } else if part == "*" {
                segments.append(.wildcard)
            } else if part.hasPrefix("{") || part.hasSuffix("}") || part.contains("{") || part.contains("}") {
                guard part.hasPrefix("{"), part.hasSuffix("}"), part.count > 2,
                      !part.dropFirst().dropLast().contains(where: { $0 == "{" || $0 == "}" })
                else {
                    throw PatternError("\"\(source)\" has a malformed template segment \"\(part)\": write {name} as a whole path segment")
                }
                segments.append(.parameter(String(part.dropFirst().dropLast())))
            } else {
                segments.append(.literal(String(part)))
            }
        }
        return segments
    }

    /// Matches the path of `target`, returning the captured parameters, or `nil`.
    func matchPath(_ path: String) -> [String: String]? {
        var parameters: [String: String] = [:]
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()[...]
        for segment in segments {
            if segment == .rest {
                return parameters
            }
            guard let part = parts.popFirst() else { return nil }
            switch segment {
            case let .literal(text):
                guard part == text else { return nil }
            case let .parameter(name):
                guard !part.isEmpty else { return nil }
                parameters[name] = String(part).removingPercentEncoding ?? String(part)
            case .wildcard:
                guard !part.isEmpty else { return nil }
            case .rest:
                return parameters
            }
        }
        return parts.isEmpty ? parameters : nil
    }

    /// The required query compared with `items` as multisets of name-value pairs.
    func queryMatches(_ items: [URLQueryItem]?) -> Bool {
        guard let query else { return true }
        return Self.sortedPairs(query) == Self.sortedPairs(items ?? [])
    }

    private static func sortedPairs(_ items: [URLQueryItem]) -> [String] {
        items.map { $0.name + "=" + ($0.value ?? "\u{0}") }.sorted()
    }
}

/// A malformed request pattern, with a sentence that says what is wrong.
struct PatternError: Error, Sendable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
