#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// How a served scope turns a received request into the `URLRequest` the registry
/// resolves, and the registry's ``Answer`` into what goes back on the wire.
struct ServedExchange {
    let head: RequestHead
    let body: Data
    /// The URL the scope sees: the stand-in origin (or the server's own, as the
    /// client named it) with the request's path and query.
    let url: URL
    /// The origin redirects to it are rewritten from, and the server's own.
    let origin: URL?
    let baseURL: URL

    /// Whether the method is `HEAD`: the answer has no body.
    var isHead: Bool {
        head.method == "HEAD"
    }

    /// The request as the registry resolves it: method, URL, every header field
    /// (repeated ones joined by commas) and the body. It has no timeout: the
    /// client keeps its own, and a client that gives up closes the connection,
    /// which cancels the request.
    var urlRequest: URLRequest {
        var request = URLRequest(url: url, timeoutInterval: .infinity)
        request.httpMethod = head.method
        // Set at once: one `addValue` per field costs several times more on Linux.
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(head.fields.count)
        for field in head.fields {
            if let index = fields.firstIndex(where: { $0.name.equalsIgnoringASCIICase(field.name) }) {
                fields[index].value += "," + field.value
            } else {
                fields.append(field)
            }
        }
        request.allHTTPHeaderFields = Dictionary(fields, uniquingKeysWith: { first, _ in first })
        if !body.isEmpty {
            request.httpBody = body
        }
        return request
    }

    /// The bytes of a whole answer; `nil` when the answer is a transport failure,
    /// which the client sees as a dropped connection.
    func bytes(of answer: Answer, closes: Bool) -> [UInt8]? {
        switch answer {
        case let .response(response, body), let .redirect(response, body, _):
            let status = response.statusCode
            var bytes = ResponseWriter.head(status: status, fields: fields(of: response), length: body.count, closes: closes, isHead: isHead)
            if !isHead, ResponseWriter.hasBody(status: status) {
                bytes += body
            }
            return bytes
        case let .failure(error):
            guard let message = Self.ownMessage(of: error) else { return nil }
            return ResponseWriter.own(status: StubServer.noStubStatus, text: message, closes: closes, isHead: isHead, summary: ServingMessages.headerSummary(message))
        case .stream:
            return nil // Played through the outbox, never written whole.
        }
    }

    /// How the body of a streamed answer goes out.
    enum StreamBody {
        /// In chunks, ended by the last chunk: to an HTTP/1.1 request.
        case chunked
        /// As it comes, ended by closing the connection: to an HTTP/1.0 request,
        /// which has no chunks (RFC 9112, section 6.1).
        case untilClose
        /// Not at all: the status has no body (204, 304), or the request is a `HEAD`.
        case none
    }

    /// How the body of the streamed `response` goes out.
    func streamBody(of response: HTTPURLResponse) -> StreamBody {
        guard !isHead, ResponseWriter.hasBody(status: response.statusCode) else { return .none }
        return head.version == "HTTP/1.1" ? .chunked : .untilClose
    }

    /// The head of a streamed answer, its body framed as `body` (its
    /// ``streamBody(of:)``) says.
    func streamHead(of response: HTTPURLResponse, body: StreamBody, closes: Bool) -> [UInt8] {
        ResponseWriter.head(status: response.statusCode, fields: fields(of: response), length: nil, chunked: body == .chunked, closes: closes || body == .untilClose)
    }

    /// The response's fields, with a `Location` on the stand-in origin pointed at
    /// the server, so that the client follows the redirect here.
    private func fields(of response: HTTPURLResponse) -> [(String, String)] {
        var fields = ResponseWriter.fields(of: response)
        guard let origin, let index = fields.firstIndex(where: { $0.0.equalsIgnoringASCIICase("Location") }) else { return fields }
        let location = fields[index].1
        if let target = URL(string: location), target.host != nil,
           target.scheme?.lowercased() == origin.scheme?.lowercased(),
           target.host?.lowercased() == origin.host?.lowercased(),
           target.port == origin.port,
           var components = URLComponents(url: target, resolvingAgainstBaseURL: false),
           let base = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) {
            components.scheme = base.scheme
            components.host = base.host
            components.port = base.port
            if let rewritten = components.string {
                fields[index].1 = rewritten
            }
        }
        return fields
    }

    /// The message of a failure URLStubs made itself (no stub answered, a stub
    /// used up or forbidden, the scope ended): `nil` for a stub's own failure.
    static func ownMessage(of error: any Error) -> String? {
        guard let error = error as? URLError, error.code == StubFailure.code else { return nil }
        return error.userInfo[NSLocalizedDescriptionKey] as? String
    }
}
