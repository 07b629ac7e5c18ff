/// What a served scope says: the reasons it refuses a request (sent back as the
/// body of its 4xx or 5xx answer), and the errors of starting one.
enum ServingMessages {
    // MARK: Requests refused before they reach the scope

    static let bareLineFeed = "a line of the request head ends with LF alone; HTTP/1.1 lines end with CR LF"
    static let bareCarriageReturn = "a line of the request head has a CR that is not followed by LF"
    static let emptyHead = "the request has no request line"
    static func requestLine(_ line: String) -> String {
        "the request line \(quoted(line)) is not METHOD SP TARGET SP HTTP-VERSION"
    }
    static func method(_ method: String) -> String {
        "the method \(quoted(method)) is not a token"
    }
    static func target(_ target: String) -> String {
        "the request target \(quoted(target)) is neither a path starting with / nor an absolute http URL"
    }
    static let asteriskTarget = "the asterisk-form request target (OPTIONS *) is not served; ask for a path"
    static func version(_ version: String) -> String {
        "the version \(quoted(version)) is not HTTP/1.0 or HTTP/1.1"
    }
    static func unsupportedVersion(_ version: String) -> String {
        "\(quoted(version)) is not served: this server speaks HTTP/1.1 (and 1.0)"
    }
    static func fieldLine(_ line: String) -> String {
        "the header line \(quoted(line)) is not NAME: VALUE with NAME a token and VALUE free of control characters"
    }
    static let obsoleteFold = "a header line starts with a space or tab (obsolete line folding, refused by RFC 9112)"
    static func headTooLarge(limit: Int) -> String {
        "the request head is larger than \(limit) bytes (ServingLimits.headBytes)"
    }
    static func requestLineTooLong(limit: Int) -> String {
        "the request line, with its line end, is longer than \(limit) bytes (ServingLimits.headBytes)"
    }
    static func tooManyFields(limit: Int) -> String {
        "the request has more than \(limit) header lines (ServingLimits.headerCount)"
    }
    static let missingHost = "the request has no Host header, which HTTP/1.1 requires"
    static let severalHosts = "the request has more than one Host header"
    static func foreignHost(_ host: String, port: UInt16) -> String {
        "the Host \(quoted(host)) is not this server: a served scope answers only 127.0.0.1:\(port), localhost:\(port) and [::1]:\(port) (other names are refused against DNS rebinding)"
    }
    static let lengthAndChunked = "the request has both Content-Length and Transfer-Encoding (RFC 9112 section 6.1 forbids both)"
    static func badLength(_ value: String) -> String {
        "the Content-Length \(quoted(value)) is not a number of bytes"
    }
    static func conflictingLengths(_ values: [String]) -> String {
        "the request has conflicting Content-Length values: \(values.map(quoted).joined(separator: ", "))"
    }
    static let chunkedTwice = "the request's Transfer-Encoding applies chunked more than once (RFC 9112 section 6.1 allows it once)"
    static let chunkedNotLast = "the request's Transfer-Encoding does not end with chunked, so its length is unknown"
    static func transferCoding(_ coding: String) -> String {
        "the transfer coding \(quoted(coding)) is not supported; only chunked is"
    }
    static let transferEncodingInHTTP10 = "an HTTP/1.0 request has a Transfer-Encoding"
    static func expectation(_ value: String) -> String {
        "the expectation \(quoted(value)) is not supported; only 100-continue is"
    }
    static func bodyTooLarge(limit: Int) -> String {
        "the request body is larger than \(limit) bytes (ServingLimits.bodyBytes)"
    }
    static func chunkSize(_ line: String) -> String {
        "the chunk size line \(quoted(line)) is not a hexadecimal size"
    }
    static func chunkExtension(_ line: String) -> String {
        "the chunk size line \(quoted(line)) has a malformed chunk extension: each is ;NAME or ;NAME=VALUE with NAME a token and VALUE a token or a quoted string (RFC 9112 section 7.1.1)"
    }
    static let chunkEnd = "a chunk of the request body is not followed by CR LF"
    static let chunkLineTooLong = "a chunk size line of the request body is too long"
    static let chunkedBareLineFeed = "a line of the chunked request body ends with LF alone; HTTP/1.1 lines end with CR LF"
    static let chunkedBareCarriageReturn = "a line of the chunked request body has a CR that is not followed by LF"
    static func trailerLine(_ line: String) -> String {
        "the trailer line \(quoted(line)) is not NAME: VALUE with NAME a token and VALUE free of control characters"
    }
    static let trailerObsoleteFold = "a trailer line starts with a space or tab (obsolete line folding, refused by RFC 9112)"
    static func trailersTooLarge(limit: Int, count: Int) -> String {
        "the request's trailer section has more than \(count) lines (ServingLimits.headerCount) or more than \(limit) bytes (ServingLimits.headBytes)"
    }
    static let headTimeout = "the request head did not arrive in time (ServingLimits.headTimeout)"
    static let bodyTimeout = "the request body did not arrive in time (ServingLimits.bodyTimeout)"
    static func badURL(_ target: String) -> String {
        "the request target \(quoted(target)) does not make a valid URL"
    }
    static func tooManyConnections(limit: Int) -> String {
        "this served scope already has \(limit) open connections (ServingLimits.connections); close some or raise the limit"
    }

    // MARK: Starting a served scope

    static func scopeEnded(_ scope: StubScope) -> String {
        "URLStubs cannot serve \(scope): it has ended. Call serve() inside the scope, while it is open."
    }
    static func socketFailed(_ call: String, code: Int32) -> String {
        "URLStubs could not open a loopback listening socket: \(call)() failed with errno \(code)."
    }
    static func badOrigin(_ origin: String) -> String {
        "URLStubs cannot serve as \(quoted(origin)): give an origin such as https://api.example.com (a scheme, a host, an optional port, no path, query or fragment)."
    }
    static func badLimit(_ name: String, _ value: String) -> String {
        "URLStubs cannot serve with ServingLimits.\(name) = \(value): it must be greater than zero."
    }

    /// The text of an answer URLStubs made itself (no stub answered), as a
    /// header value: its first line, without control characters.
    static func headerSummary(_ message: String) -> String {
        let first = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
        return String(first.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F || $0.value > 0x7E ? " " : Character($0) }.prefix(300))
    }

    /// `text` quoted, control characters escaped and long text cut short, so that
    /// a hostile request cannot shape the answer.
    static func quoted(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(120) {
            switch scalar.value {
            case 0x20..<0x7F where scalar != "\"" && scalar != "\\":
                out.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += scalar.value < 0x100 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{\(hex)}"
            }
        }
        return "\"" + out + (text.unicodeScalars.count > 120 ? "..." : "") + "\""
    }
}
