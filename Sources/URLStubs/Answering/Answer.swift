#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What a request ends with, ready to hand to the URL protocol client.
enum Answer: Sendable {
    /// An HTTP response and its whole body.
    case response(HTTPURLResponse, Data)
    /// A transport error.
    case failure(any Error)

    /// The answer `response` gives `request`.
    init(_ response: StubResponse, for request: RecordedRequest) {
        switch response.kind {
        case let .http(status, headers, body):
            guard let http = HTTPURLResponse(url: request.url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers) else {
                self = .failure(StubFailure.error(FailureMessages.unbuildableResponse(request, status: status), url: request.url))
                return
            }
            self = .response(http, request.method == "HEAD" ? Data() : body)
        case let .failure(error):
            self = .failure(error)
        case let .sequence(responses):
            self.init(responses[0], for: request)
        case let .refused(reason):
            self = .failure(StubFailure.error(FailureMessages.refusedComputedResponse(request, reason: reason), url: request.url))
        }
    }

    /// Calls `client` in the order Foundation requires: the response, the body in
    /// one chunk, the finish; or the one failure.
    ///
    /// One chunk, because on Linux `data(for:)` and completion handlers keep only
    /// the last chunk they are given.
    func deliver(to client: any URLProtocolClient, from urlProtocol: URLProtocol) {
        switch self {
        case let .response(response, body):
            client.urlProtocol(urlProtocol, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !body.isEmpty {
                client.urlProtocol(urlProtocol, didLoad: body)
            }
            client.urlProtocolDidFinishLoading(urlProtocol)
        case let .failure(error):
            client.urlProtocol(urlProtocol, didFailWithError: error)
        }
    }
}
