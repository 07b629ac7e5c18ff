#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Redirect responses.
extension StubResponse {
    /// Redirects the request to `location` with `status` (301, 302, 303, 307 or 308).
    ///
    /// The client follows it as it would a server's redirect: `location` is resolved
    /// against the request's URL, 303 (and a POST answered with 301 or 302) becomes
    /// a GET without a body while 307 and 308 keep the method and body, and the next
    /// request is answered by the stubs of the same scope and logged like any other,
    /// up to 10 redirects in a row (then the request fails with
    /// `URLError.httpTooManyRedirects`). The client gets the final response, whose
    /// `url` is the final URL. A hop to another origin (scheme, host or port)
    /// carries none of the request's `Authorization`, `Proxy-Authorization` and
    /// `Cookie` fields.
    ///
    /// With `follow: false` the redirect response itself is delivered, as a session
    /// whose delegate refuses every redirect would receive it. Any response with a
    /// redirect status and a `Location` header is followed the same way.
    public static func redirect(
        to location: String,
        status: Int = 302,
        headers: [String: String] = [:],
        follow: Bool = true
    ) -> StubResponse {
        guard RedirectHop.isRedirect(status) else {
            return StubResponse(.refused(ResponseMessages.notARedirectStatus(status)))
        }
        guard !location.isEmpty, URL(string: location) != nil else {
            return StubResponse(.refused(ResponseMessages.invalidLocation(location)))
        }
        var fields = headers.filter { $0.key.caseInsensitiveCompare("Location") != .orderedSame }
        fields["Location"] = location
        var response = http(status: status, headers: fields, body: Data(), contentType: nil)
        response.followsRedirect = follow
        return response
    }
}
