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
        StubRegistry.shared.matchWithoutRecording(request, in: self)
    }
}

extension StubRegistry {
    nonisolated func matchWithoutRecording(_ urlRequest: URLRequest, in scope: StubScope) -> Bool {
        let request = RecordedRequest(urlRequest: urlRequest, body: urlRequest.httpBody, sequenceNumber: 0)
        var predicates = PredicateResults.lookedUp
        while true {
            // As a request is resolved: predicates run outside the lock, between rounds.
            let matched = withIsolation { registry -> Bool? in
                guard let scopeState = registry.scopes[scope.id] else { return false }
                let found = registry.chain(from: scopeState).contains { $0.bestMatch(for: request, predicates: &predicates) != nil }
                return predicates.isComplete ? found : nil
            }
            if let matched {
                return matched
            }
            predicates.runNeeded(on: request)
        }
    }
}
