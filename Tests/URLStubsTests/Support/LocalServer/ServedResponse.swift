import Foundation

/// The response a ``LocalServer`` handler returns for one request.
///
/// The server adds `Content-Length` (unless given here, or the status has no
/// body) and `Connection`; everything else is sent exactly as given.
struct ServedResponse: Sendable {
    /// The status code, such as `200`.
    var status: Int

    /// The header fields in the order they are sent; a name may repeat, as
    /// `Set-Cookie` often does.
    var headers: [(name: String, value: String)]

    /// The body, sent as is (and left out for `HEAD` requests).
    var body: Data

    /// A response with `status`, `headers` (a literal may repeat a name) and `body`.
    init(status: Int = 200, headers: KeyValuePairs<String, String> = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers.map { (name: $0.key, value: $0.value) }
        self.body = body
    }

    /// A response with `status` whose body is `text` in UTF-8, labelled
    /// `text/plain; charset=utf-8`.
    static func text(_ text: String, status: Int = 200) -> ServedResponse {
        ServedResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// Whether a response with this status never has a body (1xx, 204 and 304).
    var statusForbidsBody: Bool {
        (100..<200).contains(status) || status == 204 || status == 304
    }

    /// The value of the header field `name` (compared case-insensitively) given
    /// last, or `nil` when there is none.
    func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }
}
