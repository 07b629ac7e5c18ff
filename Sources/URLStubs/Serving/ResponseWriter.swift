#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Writes responses in HTTP/1.1: a status line, header lines, and a body framed
/// by the server (`Content-Length`, or chunked for a stream), never by a stub.
enum ResponseWriter {
    /// Header fields that frame the message or belong to the connection: a stub's
    /// are dropped, the server writes its own.
    private static let framingFields: Set<String> = ["content-length", "transfer-encoding", "connection", "keep-alive"]

    /// The head of a response with `status` and `fields`: `length` is the body's
    /// length (`nil` for a body of unknown length: chunked when `chunked`, else
    /// one that runs to the connection's close, as HTTP/1.0 has no chunks),
    /// `isHead` keeps a stub's own `Content-Length` for a `HEAD` (the length its
    /// `GET` would have).
    static func head(status: Int, fields: [(String, String)], length: Int?, chunked: Bool = true, closes: Bool, isHead: Bool = false) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason(for: status))\r\n"
        var stubLength: String?
        for (name, value) in fields {
            let lowered = name.lowercased()
            if framingFields.contains(lowered) {
                if lowered == "content-length" { stubLength = value }
                continue
            }
            text += clean(name) + ": " + clean(value) + "\r\n"
        }
        let hasNoBody = !hasBody(status: status)
        if isHead {
            if let stubLength, !hasNoBody { text += "Content-Length: \(clean(stubLength))\r\n" }
        } else if !hasNoBody {
            if let length {
                text += "Content-Length: \(length)\r\n"
            } else if chunked {
                text += "Transfer-Encoding: chunked\r\n"
            }
        }
        if closes {
            text += "Connection: close\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// Whether a response with `status` has a body at all: not a 1xx, 204 or 304
    /// (RFC 9110, section 6.4.1), whatever a stub gives it.
    static func hasBody(status: Int) -> Bool {
        status != 204 && status != 304 && !(100..<200).contains(status)
    }

    /// The head fields of `response`, sorted by name so that the bytes sent do
    /// not depend on dictionary order.
    static func fields(of response: HTTPURLResponse) -> [(String, String)] {
        response.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String else { return nil }
            return (name, "\(value)")
        }.sorted { $0.0 < $1.0 }
    }

    /// One chunk of a chunked body.
    static func chunk(_ piece: Data) -> [UInt8] {
        Array(String(piece.count, radix: 16).utf8) + [13, 10] + Array(piece) + [13, 10]
    }

    /// The last chunk, with no trailers.
    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// The interim answer to `Expect: 100-continue`.
    static let continueHead: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// A response the server makes itself (a refusal, or URLStubs's answer when no
    /// stub answers): `text` as a plain-text body, marked as URLStubs's.
    static func own(status: Int, text: String, closes: Bool, isHead: Bool = false, summary: String? = nil) -> [UInt8] {
        let body = Array((text + "\n").utf8)
        var fields = [("Content-Type", "text/plain; charset=utf-8"), ("Server", "URLStubs")]
        if let summary {
            fields.append((noStubField, summary))
        }
        var bytes = head(status: status, fields: fields, length: body.count, closes: closes)
        if !isHead {
            bytes += body
        }
        return bytes
    }

    /// The header field that marks an answer URLStubs made because no stub answered.
    static let noStubField = "X-URLStubs-Failure"

    /// A stub's name or value with line breaks and other control characters
    /// turned into spaces: a stub cannot split a response into two.
    private static func clean(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 32 || $0 == 127 }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 32 || $0.value == 127 ? " " : $0 }))
    }

    /// The reason phrase of `status` (informative only: clients read the number).
    static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        case StubServer.noStubStatus: "No Stub Answered (URLStubs)"
        default: "Status"
        }
    }
}
