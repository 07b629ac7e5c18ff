#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

@_spi(Benchmarking)
extension StubScope {
    /// Finds the stub that would answer `request` in this scope (then its enclosing
    /// scopes, then the global scope) without recording the request or taking a use;
    /// returns whether one matched. A body stream is read to its end, as
    /// `startLoading()` reads it: a request whose stream was read has no body the
    /// next time.
    ///
    /// For the benchmark target only: it isolates the cost of matching from the
    /// cost of URL loading.
    public func matchWithoutRecording(_ request: URLRequest) async -> Bool {
        StubRegistry.shared.matchWithoutRecording(request, in: self)
    }

    /// Resolves `request` in this scope as `startLoading()` does: records it, finds
    /// the stub that answers it, takes one of its uses and writes down its answer,
    /// all on the calling thread; returns whether a stub answered. Nothing is
    /// loaded and no response is built; an answer that would wait (a delay, a
    /// closure that suspends, a stream) is written down as cancelled. A body stream
    /// is read to its end, as `startLoading()` reads it.
    ///
    /// For the benchmark target only: it isolates the cost of a request's
    /// resolution from the cost of URL loading.
    public func resolveWithoutLoading(_ request: URLRequest) -> Bool {
        let route = RequestRoute.scope(self)
        let pending = UnansweredRequest()
        var resolution = StubRegistry.shared.resolve(request, body: RequestBody.read(from: request), route: route, pending: pending)
        if case let .computeInline(respond, exchange) = resolution {
            guard let computed = StubRegistry.Resolution.computedInline(respond, for: exchange, on: route, pending: pending) else { return false }
            resolution = computed
        }
        switch resolution {
        case .fail:
            return false
        case let .respond(response, _) where !response.isDeferred:
            return true
        case .respond, .compute, .computeInline, .passThrough:
            StubRegistry.shared.settle(pending, on: route)
            return true
        }
    }
}

/// The request of ``StubScope/resolveWithoutLoading(_:)``, which no one waits for.
private final class UnansweredRequest: PendingAnswer {
    func abandon(with error: URLError) -> Task<Void, Never>? {
        nil
    }
}

extension StubRegistry {
    nonisolated func matchWithoutRecording(_ urlRequest: URLRequest, in scope: StubScope) -> Bool {
        let request = RecordedRequest(urlRequest: urlRequest, body: RequestBody.read(from: urlRequest), sequenceNumber: 0)
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
