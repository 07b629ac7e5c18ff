#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The blog-post `MockURLProtocol` at its simplest: `canInit` says yes to everything.
///
/// Only its `canInit` is measured (the floor of the canInit benchmark); it answers
/// any request that does reach it with an error.
final class AlwaysTrueMockURLProtocol: URLProtocol {
    /// Returns `true` for every request.
    ///
    /// Kept out of line, as it is for Foundation, which calls it through the class
    /// object: otherwise the optimiser could fold the benchmark loop away.
    @inline(never)
    override class func canInit(with request: URLRequest) -> Bool {
        true
    }

    /// Returns `request` unchanged.
    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Fails the request: this baseline only exists for its `canInit`.
    override func startLoading() {
        client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
    }

    /// Does nothing: the request was answered synchronously.
    override func stopLoading() {}
}
