/// A request the server refuses before it reaches the scope: the status it is
/// answered with and the reason, sent as the answer's body. The connection is
/// closed after it.
struct RequestRejection: Error, Equatable {
    let status: Int
    let reason: String

    /// `400 Bad Request`: the bytes are not a well-formed HTTP/1.1 request.
    static func malformed(_ reason: String) -> RequestRejection {
        RequestRejection(status: 400, reason: reason)
    }
}
