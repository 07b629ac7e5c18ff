#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The blog-post `MockURLProtocol` with a static dictionary of answers, the
/// baseline of the canInit and interception benchmarks.
///
/// `canInit` looks the URL up in the table; `startLoading` answers synchronously,
/// as blog posts do: `didReceive`, `didLoad`, `didFinishLoading` (or
/// `didFailWithError`). The table is immutable (filled once), which is the fastest
/// and only data-race-free form of the usual `static var`.
final class DictionaryMockURLProtocol: URLProtocol {
    /// Returns whether the table has an answer for the request's URL.
    ///
    /// Kept out of line, as it is for Foundation, which calls it through the class
    /// object: otherwise the optimiser could fold the benchmark loop away.
    @inline(never)
    override class func canInit(with request: URLRequest) -> Bool {
        guard let url = request.url else { return false }
        return MockAnswer.table[url] != nil
    }

    /// Returns `request` unchanged.
    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Answers from the table, synchronously.
    override func startLoading() {
        Self.answer(self)
    }

    /// Answers the request of `loading` from the table, synchronously: the whole of
    /// what a blog post's `startLoading()` does.
    static func answer(_ loading: URLProtocol) {
        guard let client = loading.client else { return }
        guard let url = loading.request.url, let answer = MockAnswer.table[url] else {
            client.urlProtocol(loading, didFailWithError: URLError(.unsupportedURL))
            return
        }
        switch answer {
        case let .body(data):
            let headers = ["Content-Length": String(data.count)]
            guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers) else {
                client.urlProtocol(loading, didFailWithError: URLError(.cannotParseResponse))
                return
            }
            client.urlProtocol(loading, didReceive: response, cacheStoragePolicy: .notAllowed)
            client.urlProtocol(loading, didLoad: data)
            client.urlProtocolDidFinishLoading(loading)
        case let .failure(code):
            client.urlProtocol(loading, didFailWithError: URLError(code))
        }
    }

    /// Does nothing: the request was answered synchronously.
    override func stopLoading() {}
}
