/// A request's line and header fields, as received.
struct RequestHead {
    let method: String
    /// The request target: a path with its query, or an absolute URL.
    let target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    let version: String
    /// The header fields in the order received, names as sent.
    let fields: [(name: String, value: String)]

    /// Every value of the fields named `name` (compared without case), in order.
    func values(of name: String) -> [String] {
        fields.compactMap { $0.name.equalsIgnoringASCIICase(name) ? $0.value : nil }
    }

    /// Whether the client asked to close the connection after this request, or
    /// speaks HTTP/1.0 (which closes unless told otherwise; keep-alive is not
    /// offered to it).
    var closesConnection: Bool {
        version == "HTTP/1.0" || values(of: "Connection").contains { value in
            value.split(separator: ",").contains { $0.trimmingSpaces.equalsIgnoringASCIICase("close") }
        }
    }
}
