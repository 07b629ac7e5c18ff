import Foundation

/// One HTTP request as a ``LocalServer`` received it, off the wire.
struct ServedRequest: Sendable {
    /// The request method as sent, such as `GET` or `POST`.
    var method: String

    /// The request target as sent on the request line: the path with its query,
    /// such as `/users/1?expand=true`.
    var path: String

    /// The protocol version from the request line, such as `HTTP/1.1`.
    var version: String

    /// The header fields in the order they were sent, with names spelled as sent.
    var headers: [(name: String, value: String)]

    /// The body after any chunked transfer coding was removed; empty when there
    /// was none.
    var body: Data

    /// The serial number (from 1) of the TCP connection that carried the request,
    /// so tests can tell whether connections were reused.
    var connection: Int

    /// The value of the header field `name`, compared case-insensitively, with the
    /// values of repeated fields joined by `", "`; `nil` when it was not sent.
    func header(_ name: String) -> String? {
        let values = headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}
