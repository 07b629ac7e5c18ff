#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Patterns that start from an HTTP method and a URL.
extension RequestPattern {
    /// Matches `GET` requests for `url`.
    public static func get(_ url: String) -> RequestPattern { RequestPattern(method: "GET", url: url) }
    /// Matches `POST` requests for `url`.
    public static func post(_ url: String) -> RequestPattern { RequestPattern(method: "POST", url: url) }
    /// Matches `PUT` requests for `url`.
    public static func put(_ url: String) -> RequestPattern { RequestPattern(method: "PUT", url: url) }
    /// Matches `PATCH` requests for `url`.
    public static func patch(_ url: String) -> RequestPattern { RequestPattern(method: "PATCH", url: url) }
    /// Matches `DELETE` requests for `url`.
    public static func delete(_ url: String) -> RequestPattern { RequestPattern(method: "DELETE", url: url) }
    /// Matches `HEAD` requests for `url`.
    public static func head(_ url: String) -> RequestPattern { RequestPattern(method: "HEAD", url: url) }
    /// Matches `OPTIONS` requests for `url`.
    public static func options(_ url: String) -> RequestPattern { RequestPattern(method: "OPTIONS", url: url) }

    /// Matches requests for `url` with the method `method`, compared case-insensitively.
    public static func method(_ method: String, _ url: String) -> RequestPattern {
        RequestPattern(method: method, url: url)
    }

    /// Matches requests for `url` whatever their method.
    public static func any(_ url: String) -> RequestPattern {
        RequestPattern(method: nil, url: url)
    }

    /// Matches `GET` requests for `url`.
    public static func get(_ url: URL) -> RequestPattern { .get(url.absoluteString) }
    /// Matches `POST` requests for `url`.
    public static func post(_ url: URL) -> RequestPattern { .post(url.absoluteString) }
    /// Matches `PUT` requests for `url`.
    public static func put(_ url: URL) -> RequestPattern { .put(url.absoluteString) }
    /// Matches `PATCH` requests for `url`.
    public static func patch(_ url: URL) -> RequestPattern { .patch(url.absoluteString) }
    /// Matches `DELETE` requests for `url`.
    public static func delete(_ url: URL) -> RequestPattern { .delete(url.absoluteString) }
    /// Matches `HEAD` requests for `url`.
    public static func head(_ url: URL) -> RequestPattern { .head(url.absoluteString) }
    /// Matches `OPTIONS` requests for `url`.
    public static func options(_ url: URL) -> RequestPattern { .options(url.absoluteString) }
    /// Matches requests for `url` with the method `method`, compared case-insensitively.
    public static func method(_ method: String, _ url: URL) -> RequestPattern { .method(method, url.absoluteString) }
    /// Matches requests for `url` whatever their method.
    public static func any(_ url: URL) -> RequestPattern { .any(url.absoluteString) }

    /// Matches every request.
    public static var anyRequest: RequestPattern {
        RequestPattern(method: nil, url: nil)
    }

    /// Matches every request to `host` (compared case-insensitively), whatever its
    /// method, scheme, port and path: `.host("localhost")`.
    ///
    /// Write the host alone: `"api.example.com"`, not a URL or `"localhost:8080"`
    /// (such a pattern is refused, naming why). A host with non-ASCII letters is
    /// matched in the ASCII form requests carry (`bücher.example` as
    /// `xn--bcher-kva.example`), and an IPv6 address with or without its brackets
    /// (`::1`, `[::1]`).
    public static func host(_ host: String) -> RequestPattern {
        switch URLText.hostCondition(host) {
        case let .success(normalized):
            RequestPattern.anyRequest.adding(.host(normalized))
        case let .failure(problem):
            RequestPattern.anyRequest.failing(PatternMessages.invalidHostCondition(host, reason: problem.reason))
        }
    }

    /// Matches the requests for which `predicate` returns `true`.
    ///
    /// `description` names the condition in failure reports. The predicate runs
    /// outside the registry's lock, at most once each time a request is matched,
    /// and may be asked about requests that another stub answers: keep it fast
    /// and free of side effects.
    public static func predicate(
        _ description: String,
        _ predicate: @escaping @Sendable (RecordedRequest) -> Bool
    ) -> RequestPattern {
        RequestPattern.anyRequest.matching(description, predicate)
    }
}
