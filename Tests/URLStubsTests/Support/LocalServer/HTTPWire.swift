import Foundation

/// The HTTP/1.1 wire format as ``LocalServer`` speaks it: reading requests
/// (`Content-Length` and chunked bodies, `Expect: 100-continue`) and writing
/// responses.
enum HTTPWire {
    /// Why no request could be read from a connection, which then ends.
    enum ReadError: Error {
        /// The connection ended, timed out or was shut down (before or during a request).
        case closed
        /// The bytes are not an HTTP/1.x request; the reason is sent back with a 400.
        case malformed(String)
    }

    /// The largest request head (request line and header fields) accepted.
    static let headLimit = 64 * 1024

    /// The largest request body accepted.
    static let bodyLimit = 64 * 1024 * 1024

    /// The bytes that end a line.
    private static let lineEnd: [UInt8] = Array("\r\n".utf8)

    /// Reads the next request from `reader`, answering `Expect: 100-continue`
    /// with an interim `100 Continue` before its body.
    static func readRequest(from reader: inout ConnectionReader, connection: Int) throws(ReadError) -> ServedRequest {
        guard let headBytes = reader.take(through: Array("\r\n\r\n".utf8), limit: headLimit) else { throw .closed }
        var lines = String(decoding: headBytes.dropLast(4), as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
            throw .malformed("bad request line")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard line.first?.isWhitespace == false, let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw .malformed("bad header field line")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name: String(line[..<colon]), value: value))
        }
        var request = ServedRequest(
            method: String(requestLine[0]), path: String(requestLine[1]), version: String(requestLine[2]),
            headers: headers, body: Data(), connection: connection
        )

        let chunked = request.header("Transfer-Encoding")?.lowercased().contains("chunked") ?? false
        let length = try contentLength(of: request)
        guard chunked || length > 0 else { return request }
        if request.header("Expect")?.lowercased() == "100-continue" {
            guard Socket.sendAll(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), on: reader.descriptor) else { throw .closed }
        }
        if chunked {
            request.body = try readChunkedBody(from: &reader)
        } else {
            guard let body = reader.take(count: length) else { throw .closed }
            request.body = Data(body)
        }
        return request
    }

    /// The request's `Content-Length`, 0 when absent.
    private static func contentLength(of request: ServedRequest) throws(ReadError) -> Int {
        guard let text = request.header("Content-Length") else { return 0 }
        guard let length = Int(text), length >= 0, length <= bodyLimit else {
            throw .malformed("bad Content-Length")
        }
        return length
    }

    /// Reads a body in the chunked transfer coding (chunk extensions and trailer
    /// fields are read and dropped), and returns it decoded.
    private static func readChunkedBody(from reader: inout ConnectionReader) throws(ReadError) -> Data {
        var body = Data()
        while true {
            guard let line = reader.take(through: lineEnd, limit: 4096) else { throw .closed }
            let sizeText = String(decoding: line.dropLast(2), as: UTF8.self)
                .prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            guard let size = Int(sizeText, radix: 16), size >= 0, body.count + size <= bodyLimit else {
                throw .malformed("bad chunk size")
            }
            if size == 0 { break }
            guard let chunk = reader.take(count: size), let end = reader.take(count: 2) else { throw .closed }
            guard end == lineEnd else { throw .malformed("chunk not followed by CRLF") }
            body.append(contentsOf: chunk)
        }
        while true {
            guard let trailer = reader.take(through: lineEnd, limit: headLimit) else { throw .closed }
            if trailer == lineEnd { return body }
        }
    }

    /// Whether the connection stays open after `response` answers `request`:
    /// HTTP/1.1 unless either side says `Connection: close`; HTTP/1.0 only when the
    /// request says `Connection: keep-alive`.
    static func keepsAlive(_ request: ServedRequest, after response: ServedResponse) -> Bool {
        let asked = request.header("Connection")?.lowercased()
        let requested = request.version == "HTTP/1.0" ? asked == "keep-alive" : asked != "close"
        return requested && response.header("Connection")?.lowercased() != "close"
    }

    /// The bytes of `response` to a request with `method`: the status line, the
    /// given header fields, `Content-Length` and `Connection` unless given, and the
    /// body unless the method is `HEAD` or the status has none.
    static func bytes(of response: ServedResponse, answering method: String, keepAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(reasonPhrase(for: response.status))\r\n"
        for field in response.headers {
            head += "\(field.name): \(field.value)\r\n"
        }
        let framed = response.header("Content-Length") != nil || response.header("Transfer-Encoding") != nil
        if !framed && !response.statusForbidsBody {
            head += "Content-Length: \(response.body.count)\r\n"
        }
        if response.header("Connection") == nil {
            head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n"
        }
        head += "\r\n"
        let sendsBody = method != "HEAD" && !response.statusForbidsBody
        return Array(head.utf8) + (sendsBody ? Array(response.body) : [])
    }

    /// The usual reason phrase for `status`, or a generic one for its class.
    static func reasonPhrase(for status: Int) -> String {
        let phrases = [
            200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
            301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
            307: "Temporary Redirect", 308: "Permanent Redirect",
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 409: "Conflict", 410: "Gone", 422: "Unprocessable Content",
            429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return phrases[status] ?? ["Informational", "Success", "Redirection", "Client Error", "Server Error"][
            min(max(status / 100 - 1, 0), 4)
        ]
    }
}
