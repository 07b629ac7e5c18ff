#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// The blog-post `MockURLProtocol` with a static request handler, the baseline of
/// the suite-shape benchmark: a test sets the handler, every request looks it up
/// and calls it in `startLoading()`, which answers synchronously.
///
/// The handler is a closure that builds the response itself, as blog posts' do
/// (`HTTPURLResponse(url:statusCode:...)` and a body), so that a computed
/// URLStubs stub and the baseline build the same things per request. It sits
/// behind a lock: tests in parallel would race a plain `static var`.
final class HandlerMockURLProtocol: URLProtocol {
    /// What a handler answers: a response and its body, or an error.
    typealias Handler = @Sendable (URLRequest) throws -> (HTTPURLResponse, Data)

    /// The handler the current test set, behind a lock.
    private static let slot = HandlerSlot()

    /// Sets the handler every request is answered by; `nil` to clear it.
    static func setHandler(_ handler: Handler?) {
        slot.set(handler)
    }

    /// Sets the handler a hand-rolled test sets up: a table of its requests' URLs,
    /// each answered with `body` (status 200, its `Content-Length`); a URL not in
    /// the table fails.
    static func setHandler(answering requests: [URLRequest], with body: Data) {
        var table: [URL: Data] = [:]
        for request in requests {
            table[request.url!] = body
        }
        setHandler { [table] request in
            let url = request.url!
            guard let body = table[url] else { throw URLError(.unsupportedURL) }
            return (HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": String(body.count)])!, body)
        }
    }

    /// Returns `true`: every request of the baseline's session is answered here.
    override class func canInit(with request: URLRequest) -> Bool {
        true
    }

    /// Returns `request` unchanged.
    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Looks the handler up and answers with what it returns, synchronously.
    override func startLoading() {
        guard let client else { return }
        guard let handler = Self.slot.get() else {
            client.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        do {
            let (response, data) = try handler(request)
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client.urlProtocol(self, didLoad: data)
            client.urlProtocolDidFinishLoading(self)
        } catch {
            client.urlProtocol(self, didFailWithError: error)
        }
    }

    /// Does nothing: the request was answered synchronously.
    override func stopLoading() {}

    /// The baseline's session, built as ``BenchmarkFixtures/baselineSession`` is.
    static let session = BenchmarkFixtures.session(answeredBy: HandlerMockURLProtocol.self)
}

/// One handler behind a lock.
private final class HandlerSlot: @unchecked Sendable {
    // @unchecked: `handler` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var handler: HandlerMockURLProtocol.Handler?

    func get() -> HandlerMockURLProtocol.Handler? {
        lock.lock()
        defer { lock.unlock() }
        return handler
    }

    func set(_ handler: HandlerMockURLProtocol.Handler?) {
        lock.lock()
        self.handler = handler
        lock.unlock()
    }
}
