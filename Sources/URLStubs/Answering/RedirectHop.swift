#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The request a client makes next when a response redirects it, by the rules of
/// RFC 9110 (section 15.4).
enum RedirectHop {
    /// Whether a client follows a response with `status` that has a `Location`.
    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// The header fields that describe a body, dropped with it.
    private static let bodyFields: Set<String> = ["content-type", "content-length", "content-encoding", "content-language", "content-location", "transfer-encoding"]

    /// The header fields that carry credentials, dropped when a redirect leaves the
    /// origin, as browsers and curl do.
    static let credentialFields: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// The request that follows a response with `status` and `headers` to
    /// `request`, or `nil` when the response is not a redirect a client follows
    /// (another status, no `Location`, or one that is not a URL).
    ///
    /// The `Location` is resolved against the request's URL (keeping its fragment
    /// when the location has none). A 303, and a 301 or 302 answering a POST,
    /// become a GET (a HEAD stays a HEAD, and loses its body too) without the body
    /// and the header fields describing it; 307 and 308 keep the method and the body.
    /// A location on another origin (scheme, host or port) gets none of the
    /// request's `Authorization`, `Proxy-Authorization` and `Cookie` fields.
    static func next(after status: Int, headers: [String: String], for request: RecordedRequest) -> URLRequest? {
        guard isRedirect(status),
              let location = headers.first(where: { $0.key.caseInsensitiveCompare("Location") == .orderedSame })?.value,
              let resolved = URL(string: location, relativeTo: request.url)?.absoluteURL
        else { return nil }
        var next = request.urlRequest
        next.url = inheritingFragment(resolved, from: request.url)
        next.httpBodyStream = nil
        let becomesGet = (status == 303 && request.method != "HEAD") || ((status == 301 || status == 302) && request.method == "POST")
        if becomesGet || status == 303 {
            if becomesGet {
                next.httpMethod = "GET"
            }
            next.httpBody = nil
            for name in (next.allHTTPHeaderFields ?? [:]).keys where bodyFields.contains(name.lowercased()) {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        } else {
            next.httpBody = request.body
        }
        if let target = next.url, !isSameOrigin(target, request.url) {
            for name in (next.allHTTPHeaderFields ?? [:]).keys where credentialFields.contains(name.lowercased()) {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return next
    }

    /// Whether `a` and `b` have one origin: scheme and host (case-insensitively)
    /// and port (a scheme's default port when none is written).
    static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
        let schemeA = a.scheme?.lowercased(), schemeB = b.scheme?.lowercased()
        return schemeA == schemeB
            && a.host?.lowercased() == b.host?.lowercased()
            && (a.port ?? defaultPort(schemeA)) == (b.port ?? defaultPort(schemeB))
    }

    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    /// `url`, with the fragment of `previous` when it has none of its own.
    private static func inheritingFragment(_ url: URL, from previous: URL) -> URL {
        guard url.fragment == nil, let fragment = previous.fragment,
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.fragment = fragment
        return components.url ?? url
    }
}
