#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A request as a stub scope received it: what was asked for, with which headers
/// and which body.
///
/// Every request that reaches a scope is recorded, in the order it arrived, whether
/// a stub answered it or not; read them with ``StubScope/requests``.
public struct RecordedRequest: Sendable {
    /// The HTTP method, uppercased (`GET` when the request did not set one).
    public var method: String { storage.method }
    /// The URL that was requested.
    public var url: URL { storage.url }
    /// The header fields set on the request, as `URLRequest.allHTTPHeaderFields`
    /// reports them.
    ///
    /// Headers of the session's `httpAdditionalHeaders` are not included: on Linux
    /// Foundation adds them only in its real HTTP protocol. Use ``header(_:)`` for a
    /// case-insensitive lookup.
    public var headers: [String: String] { storage.headers }
    /// The body: the request's `httpBody`, or the bytes drained from its
    /// `httpBodyStream`; `nil` when the request had neither.
    public var body: Data? { storage.body }
    /// The request itself, as the stub protocol received it.
    public var urlRequest: URLRequest { storage.urlRequest }
    /// The position of this request among all requests the registry received.
    public internal(set) var sequenceNumber: UInt64
    /// The values captured by the `{name}` segments of the URL template of the
    /// stub that answered the request, percent-decoded; empty when no template
    /// matched. Inside a pattern's predicate (``RequestPattern/matching(_:_:)``),
    /// those the predicate's own pattern captured.
    public var pathParameters: [String: String] {
        captures.values(inPath: pathAsMatched)
    }
    /// What the templates of the stub that answered captured, decoded when read.
    var captures = PathCaptures.none

    /// The request with `captures` as what its templates captured: what a
    /// predicate of a pattern is given, with the pattern's own captures.
    func capturing(_ captures: PathCaptures) -> RecordedRequest {
        var request = self
        request.captures = captures
        return request
    }

    /// The path as patterns match it: the target's percent-encoded path, or, for a
    /// URL without a scheme and host, Foundation's (decoded) `url.path`.
    var pathAsMatched: String {
        target?.path ?? url.path
    }
    /// The URL's parts as matching compares them; `nil` when it has no scheme or host.
    var target: RequestTarget? { storage.target }

    /// What never changes once the request is read, kept in one object: a request
    /// is copied into logs, waiters and messages, and a copy is then one retain.
    private final class Storage: Sendable {
        let method: String
        let url: URL
        let headers: [String: String]
        let body: Data?
        let urlRequest: URLRequest
        let target: RequestTarget?

        init(method: String, url: URL, headers: [String: String], body: Data?, urlRequest: URLRequest, target: RequestTarget?) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.urlRequest = urlRequest
            self.target = target
        }
    }

    private let storage: Storage

    init(urlRequest: URLRequest, body: Data?, sequenceNumber: UInt64) {
        // A URLRequest always carries a URL when it reaches a URLProtocol.
        self.init(urlRequest: urlRequest, url: urlRequest.url ?? URL(string: "about:blank")!, body: body, sequenceNumber: sequenceNumber)
    }

    /// Reads `urlRequest`, whose URL the caller has already read as `url` (each
    /// read of a request's URL is a call into Foundation).
    init(urlRequest: URLRequest, url: URL, body: Data?, sequenceNumber: UInt64) {
        storage = Storage(
            method: HTTPMethod.uppercased(urlRequest.httpMethod ?? "GET"),
            url: url,
            headers: urlRequest.allHTTPHeaderFields ?? [:],
            body: body,
            urlRequest: urlRequest,
            target: RequestTarget.of(requestURL: url)
        )
        self.sequenceNumber = sequenceNumber
    }

    /// The value of the header field `name`, compared case-insensitively, or `nil`.
    public func header(_ name: String) -> String? {
        if let exact = headers[name] {
            return exact
        }
        return headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body decoded as UTF-8 text, or `nil` when there is no body or it is not
    /// valid UTF-8.
    public var bodyText: String? {
        body.flatMap { String(data: $0, encoding: .utf8) }
    }

    /// Decodes the body as JSON into `type`.
    ///
    /// - Throws: ``StubRequestBodyError/missingBody(method:url:)`` when the request had no body,
    ///   or the decoder's error when the body is not the expected JSON.
    public func decodeJSON<Value: Decodable>(
        _ type: Value.Type = Value.self,
        using decoder: JSONDecoder = JSONDecoder()
    ) throws -> Value {
        guard let body else {
            throw StubRequestBodyError.missingBody(method: method, url: url)
        }
        return try decoder.decode(type, from: body)
    }

    /// The values of the query item `name` in the URL, in order of appearance.
    public func queryValues(_ name: String) -> [String?] {
        (target?.queryItems ?? []).filter { $0.name == name }.map(\.value)
    }
}

extension RecordedRequest: CustomStringConvertible {
    /// The request written as `METHOD URL`.
    public var description: String {
        "\(method) \(url.absoluteString)"
    }
}

/// An error reading the body of a ``RecordedRequest``.
public enum StubRequestBodyError: Error, CustomStringConvertible {
    /// The request had neither an `httpBody` nor an `httpBodyStream`.
    case missingBody(method: String, url: URL)

    /// A sentence naming the request whose body was missing.
    public var description: String {
        switch self {
        case let .missingBody(method, url):
            "\(method) \(url.absoluteString) has no body to decode (neither httpBody nor httpBodyStream was set; upload(for:from:) bodies are invisible to URL protocols on Linux)"
        }
    }
}
