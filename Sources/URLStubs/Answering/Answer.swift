#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What a request ends with, ready to hand to the URL protocol client.
enum Answer: Sendable {
    /// An HTTP response and its whole body.
    case response(HTTPURLResponse, Data)
    /// An HTTP response whose body arrives over time, played by the stream.
    case stream(HTTPURLResponse, StreamPlayback)
    /// A redirect (with its body) that the client follows to the request.
    case redirect(HTTPURLResponse, Data, to: URLRequest)
    /// A transport error.
    case failure(any Error)

    /// The answer `response` gives `request`; a streamed one writes its outcome in
    /// `exchange` when it ends, and runs a written stream in the scope of `route`.
    init(_ response: StubResponse, for request: RecordedRequest, exchange: LoggedExchange? = nil, route: RequestRoute = .noScope) {
        switch response.kind {
        case let .http(status, headers, body):
            let head = response.headCache.map { cache in
                cache.value(for: request.url) { _ in Self.head(status: status, headers: headers, for: request) }
            } ?? Self.head(status: status, headers: headers, for: request)
            guard let http = head else {
                self = .failure(StubFailure.error(FailureMessages.unbuildableResponse(request, status: status), url: request.url))
                return
            }
            let body = request.method == "HEAD" ? Data() : body
            if response.followsRedirect, let next = RedirectHop.next(after: status, headers: headers, for: request) {
                self = .redirect(http, body, to: next)
            } else {
                self = .response(http, body)
            }
        case let .stream(status, headers, stream):
            guard let http = Self.head(status: status, headers: headers, for: request) else {
                self = .failure(StubFailure.error(FailureMessages.unbuildableResponse(request, status: status), url: request.url))
                return
            }
            guard request.method != "HEAD" else {
                self = .response(http, Data())
                return
            }
            self = .stream(http, StreamPlayback(status: status, headers: headers, stream: stream, exchange: exchange, route: route))
        case let .failure(error):
            self = .failure(error)
        case let .sequence(responses):
            self.init(responses[0], for: request, exchange: exchange, route: route)
        case let .refused(reason):
            self = .failure(StubFailure.error(FailureMessages.refusedComputedResponse(request, reason: reason), url: request.url))
        }
    }

    private static func head(status: Int, headers: [String: String], for request: RecordedRequest) -> HTTPURLResponse? {
        HTTPURLResponse(url: request.url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
    }

    /// Calls `client` in the order Foundation requires: the response, the body in
    /// one chunk, the finish; or the one failure; or, on Apple platforms, the
    /// redirect (see ``calls``).
    ///
    /// One chunk, because on Linux `data(for:)` and completion handlers keep only
    /// the last chunk they are given.
    func deliver(to client: any URLProtocolClient, from urlProtocol: URLProtocol) {
        switch self {
        case let .response(response, body):
            // The common cases, spelled out: no array of calls on the per-request path.
            ClientCall.receive(response).make(to: client, from: urlProtocol)
            if !body.isEmpty {
                ClientCall.load(body).make(to: client, from: urlProtocol)
            }
            ClientCall.finish.make(to: client, from: urlProtocol)
        case let .failure(error):
            ClientCall.fail(error).make(to: client, from: urlProtocol)
        case .stream, .redirect:
            for call in calls {
                call.make(to: client, from: urlProtocol)
            }
        }
    }
}
