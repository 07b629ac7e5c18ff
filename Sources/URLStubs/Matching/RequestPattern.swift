#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Which requests a stub answers: a method, a URL or URL template, and optional
/// conditions on the query, the headers and the body.
///
/// Start from a method and a URL, then add conditions:
///
/// ```swift
/// .get("https://api.example.com/users/{id}")
/// .post("https://api.example.com/users").header("Authorization", "Bearer t0k3n").jsonBody(newUser)
/// .any("/health")                         // any method, any host
/// .predicate("a request with a trace id") { $0.header("X-Trace-Id") != nil }
/// ```
///
/// URL strings are either absolute (`https://host[:port]/path[?query]`) or a path
/// starting with `/`, which matches that path on any host. Path segments may be
/// `{name}` (any one segment, captured in ``RecordedRequest/pathParameters``), `*`
/// (any one segment) or, as the last segment, `**` (the rest of the path). A URL
/// without `?` matches whatever query the request has; a URL with `?` requires
/// exactly those query items, in any order, each compared decoded. Scheme and host
/// compare case-insensitively, the path exactly but for how its escapes are
/// written (`%2f` is `%2F`, `%7E` is `~`).
///
/// A pattern that cannot be parsed does not crash and never matches: the stub
/// registered with it is reported, with the reason, when its scope ends.
public struct RequestPattern: Sendable {
    enum Condition: Sendable {
        case query(name: String, value: String?)
        case header(name: String, value: String?)
        case body(Data)
        case jsonBody(canonical: Data, display: String)
        case bodyContains(String)
        case predicate(Predicate)
        /// The host, compared case-insensitively, whatever the scheme and port.
        case host(String)
        /// Exactly these query items, in any order, read as the redaction reads a
        /// query (``URLText/listItems(_:)``); a redacted value matches any.
        case recordedQuery([QueryItem])
        /// A body equal to this recorded one, where redacted values match any.
        case recordedBody(Data?)
        /// The scheme, lowercased.
        case scheme(String)
        /// A percent-encoded path ending; `display` is the ending as written.
        case pathSuffix(encoded: String, display: String)
        /// A last path segment ending in `.` and this percent-encoded extension.
        case fileExtension(encoded: String, display: String)
        /// The whole URL text, searched with a regular expression.
        case urlRegex(URLRegex)
        /// A field of a form body, with the value `value` when it is given.
        case formField(name: String, value: String?)
        /// Any one of these patterns (at least two).
        indirect case alternatives([RequestPattern])
        /// Not this pattern.
        indirect case not(RequestPattern)
    }

    /// A condition written as a closure: code of the user's, which the registry
    /// runs outside its lock (see ``PredicateResults``). A class, so that the
    /// results of one request's predicates are kept by identity.
    final class Predicate: Sendable {
        /// Names the condition in failure reports.
        let description: String
        let test: @Sendable (RecordedRequest) -> Bool

        init(_ description: String, _ test: @escaping @Sendable (RecordedRequest) -> Bool) {
            self.description = description
            self.test = test
        }
    }

    /// The pattern's parts, in one immutable object: every stub compared with a
    /// request has its pattern read, and a copy is then one retain. Changing a part
    /// makes a new object (a pattern changes while it is built, not while it matches).
    private var parts: Parts

    /// The parts of a pattern.
    private final class Parts: Sendable {
        let method: String?
        let url: URLPattern?
        let conditions: [Condition]
        let problem: String?
        let urlSource: String?

        init(method: String?, url: URLPattern?, conditions: [Condition], problem: String?, urlSource: String?) {
            self.method = method
            self.url = url
            self.conditions = conditions
            self.problem = problem
            self.urlSource = urlSource
        }
    }

    /// The uppercased method to match, or `nil` for any method.
    var method: String? {
        get { parts.method }
        set { parts = Parts(method: newValue, url: url, conditions: conditions, problem: problem, urlSource: urlSource) }
    }

    /// The URL to match, or `nil` for any URL.
    var url: URLPattern? {
        get { parts.url }
        set { parts = Parts(method: method, url: newValue, conditions: conditions, problem: problem, urlSource: urlSource) }
    }

    /// The conditions besides the method and URL, all of which must hold.
    var conditions: [Condition] {
        get { parts.conditions }
        set { parts = Parts(method: method, url: url, conditions: newValue, problem: problem, urlSource: urlSource) }
    }

    /// Why the pattern is malformed, or `nil` when it is usable.
    var problem: String? {
        get { parts.problem }
        set { parts = Parts(method: method, url: url, conditions: conditions, problem: newValue, urlSource: urlSource) }
    }

    /// The URL pattern as written, kept for messages even when it is malformed.
    var urlSource: String? {
        get { parts.urlSource }
        set { parts = Parts(method: method, url: url, conditions: conditions, problem: problem, urlSource: newValue) }
    }

    init(method: String?, url: String?) {
        var parsed: URLPattern?
        var problem: String?
        if let url {
            do {
                parsed = try URLPattern(parsing: url)
            } catch {
                problem = error.message
            }
        }
        parts = Parts(method: method.map(HTTPMethod.uppercased), url: parsed, conditions: [], problem: problem, urlSource: url)
    }

    /// Whether the pattern has a `.predicate` condition, at its top or inside an
    /// `.or` or `.not`: code of the user's, which must not run under the
    /// registry's lock.
    var hasPredicates: Bool {
        conditions.contains { condition in
            switch condition {
            case .predicate:
                true
            case let .alternatives(patterns):
                patterns.contains(where: \.hasPredicates)
            case let .not(pattern):
                pattern.hasPredicates
            default:
                false
            }
        }
    }

    /// The key of the exact index this pattern is stored under, if it is exact.
    var routeKey: String? {
        url?.routeKey
    }
}

extension RequestPattern: CustomStringConvertible {
    /// The pattern written as `METHOD URL` followed by its conditions, for example
    /// `GET https://api.example.com/users/{id} [header Accept: application/json]`.
    public var description: String {
        var remaining = conditions[...]
        var text: String
        if method == nil, urlSource == nil, let first = remaining.first, let composite = Self.compositeText(first) {
            // `.get(a).or(.get(b))` and `.not(p)` are written as what they combine.
            remaining = remaining.dropFirst()
            text = remaining.isEmpty ? composite : "(" + composite + ")"
        } else {
            text = (method ?? "ANY") + " " + (urlSource.map { $0.isEmpty ? "\"\"" : $0 } ?? "any URL")
        }
        let details = remaining.map { condition -> String in
            switch condition {
            case let .query(name, value?): "query \(name)=\(value)"
            case let .query(name, nil): "query \(name)"
            case let .header(name, value?): "header \(name): \(value)"
            case let .header(name, nil): "header \(name)"
            case let .body(data): "body of \(data.count) bytes"
            case let .jsonBody(_, display): "JSON body \(display)"
            case let .bodyContains(text): "body containing \"\(text)\""
            case let .predicate(predicate): predicate.description
            case let .host(host): "host \(host)"
            case let .recordedQuery(items): items.isEmpty ? "no query" : "query " + Self.queryText(items)
            case let .recordedBody(body?): "body " + Self.bodyText(body)
            case .recordedBody(nil): "no body"
            case let .scheme(scheme): "scheme \(scheme)"
            case let .pathSuffix(_, display): "path ending in \"\(display)\""
            case let .fileExtension(_, display): "file extension .\(display)"
            case let .urlRegex(regex): "URL matching \(regex.source)"
            case let .formField(name, value?): "form field \(name)=\(value)"
            case let .formField(name, nil): "form field \(name)"
            case .alternatives, .not: Self.compositeText(condition) ?? ""
            }
        }
        if !details.isEmpty {
            text += " [" + details.joined(separator: ", ") + "]"
        }
        return text
    }
}

extension RequestPattern {
    /// How an ``Condition/alternatives(_:)`` or ``Condition/not(_:)`` condition is
    /// written, or `nil` for any other condition.
    static func compositeText(_ condition: Condition) -> String? {
        switch condition {
        case let .alternatives(patterns):
            patterns.map { $0.description.contains(" or ") ? "(\($0.description))" : $0.description }.joined(separator: " or ")
        case let .not(pattern):
            "not " + (pattern.description.contains(" or ") ? "(\(pattern.description))" : pattern.description)
        default:
            nil
        }
    }
}
