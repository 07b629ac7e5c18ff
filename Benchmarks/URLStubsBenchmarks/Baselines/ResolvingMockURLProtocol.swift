#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
@_spi(Benchmarking) import URLStubs

/// The static-dictionary protocol that first resolves each request in a URLStubs
/// scope, as `StubURLProtocol.startLoading()` does (recorded, matched, a use taken,
/// the answer written down), then answers from its table as
/// ``DictionaryMockURLProtocol`` does.
///
/// The reference that splits the template row in two: against the dictionary
/// protocol it reads as what URLStubs' resolution costs inside URL loading, with
/// Foundation's work between two resolutions; against URLStubs it reads as what
/// the rest of `StubURLProtocol` costs (the task's scope, the delivery, the answer
/// built from the stub) beyond what a dictionary protocol does itself (its table
/// lookups and the response it builds). Reading ``scope`` takes a lock, tens of
/// nanoseconds per request.
final class ResolvingMockURLProtocol: URLProtocol {
    /// The scope requests are resolved in; `nil` answers without resolving.
    static let scope = LockedValue<StubScope?>(nil)

    /// Requests whose resolution found no stub (none is expected).
    static let unresolved = LockedValue(0)

    /// Returns whether the table has an answer for the request's URL, as
    /// ``DictionaryMockURLProtocol`` does.
    override class func canInit(with request: URLRequest) -> Bool {
        DictionaryMockURLProtocol.canInit(with: request)
    }

    /// Returns `request` unchanged.
    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Resolves the request in ``scope``, then answers from the table.
    override func startLoading() {
        if let scope = Self.scope.withLock({ $0 }), !scope.resolveWithoutLoading(request) {
            Self.unresolved.withLock { $0 += 1 }
        }
        DictionaryMockURLProtocol.answer(self)
    }

    /// Does nothing: the request was answered synchronously.
    override func stopLoading() {}
}
