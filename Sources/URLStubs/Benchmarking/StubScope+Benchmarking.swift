#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

@_spi(Benchmarking)
extension StubScope {
    /// Finds the stub that would answer `request` in this scope (then its enclosing
    /// scopes, then the global scope) without recording the request or taking a use;
    /// returns whether one matched.
    ///
    /// For the benchmark target only: it isolates the cost of matching from the
    /// cost of URL loading.
    public func matchWithoutRecording(_ request: URLRequest) async -> Bool {
        let target = request.url.flatMap(RequestTarget.init)
        return await StubRegistry.shared.matchWithoutRecording(request, target: target, in: self)
    }
}

extension StubRegistry {
    func matchWithoutRecording(_ urlRequest: URLRequest, target: RequestTarget?, in scope: StubScope) -> Bool {
        let request = RecordedRequest(urlRequest: urlRequest, body: urlRequest.httpBody, sequenceNumber: 0)
        guard let namespace = namespaces[scope.id] else { return false }
        for member in chain(from: namespace) where member.bestMatch(for: request, target: target) != nil {
            return true
        }
        return false
    }
}
