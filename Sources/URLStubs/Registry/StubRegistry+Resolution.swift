#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension StubRegistry {
    /// What the loading task must do to answer a request.
    enum Resolution: Sendable {
        /// Answer with this response (after its delay, if it has one).
        case respond(StubResponse, RecordedRequest)
        /// Compute the response with the stub's closure, then answer.
        case compute(@Sendable (RecordedRequest) async throws -> StubResponse, RecordedRequest)
        /// Fail the request with this error.
        case fail(URLError)

        /// Whether the answer waits for a delay or a closure, so that the scope
        /// must be able to fail it if it ends first.
        var isDeferred: Bool {
            switch self {
            case let .respond(response, _): response.delay != nil
            case .compute: true
            case .fail: false
            }
        }
    }

    /// Records `urlRequest` in the scope it was made in and its enclosing scopes,
    /// finds the stub that answers it, and takes one of that stub's uses.
    ///
    /// Stubs are searched in the request's own scope, then in each enclosing scope,
    /// then in the global scope; in each, the newest matching stub wins.
    func resolve(
        _ urlRequest: URLRequest,
        body: Data?,
        target: RequestTarget?,
        scope: StubScope?,
        exchange: StubExchange
    ) -> Resolution {
        var request = RecordedRequest(urlRequest: urlRequest, body: body, sequenceNumber: nextRequestNumber)
        nextRequestNumber += 1
        let home = scope ?? .global
        guard let namespace = namespaces[home.id] else {
            return .fail(StubFailure.error(StubFailure.endedMessage(request, scope: home), url: request.url))
        }
        let chain = self.chain(from: namespace)
        for member in chain {
            guard let (entry, evaluation) = member.bestMatch(for: request, target: target) else { continue }
            request.pathParameters = evaluation.pathParameters
            log(request, in: chain, isUnscoped: scope == nil)
            if entry.expectation.forbidsRequests {
                entry.violations += 1
                return .fail(StubFailure.error(StubFailure.forbiddenMessage(request, stub: entry), url: request.url))
            }
            if let refusal = entry.refusal {
                return .fail(StubFailure.error(StubFailure.refusedMessage(request, stub: entry, reason: refusal), url: request.url))
            }
            let resolution: Resolution
            switch entry.source {
            case let .fixed(response):
                resolution = .respond(entry.takeFixedResponse(response), request)
            case let .dynamic(closure):
                entry.hits += 1
                resolution = .compute(closure, request)
            }
            if resolution.isDeferred {
                namespace.inFlight[ObjectIdentifier(exchange)] = InFlightRequest(exchange: exchange, request: request)
            }
            return resolution
        }
        log(request, in: chain, isUnscoped: scope == nil)
        return .fail(unmatched(request, target: target, in: namespace, chain: chain, isUnscoped: scope == nil))
    }

    /// Forgets a deferred request once it has been answered.
    func settle(_ exchange: StubExchange, in scope: StubScope?) {
        namespaces[(scope ?? .global).id]?.inFlight[ObjectIdentifier(exchange)] = nil
    }

    /// The namespace, its enclosing namespaces that are still open, and the global one.
    func chain(from namespace: Namespace) -> [Namespace] {
        var chain = [namespace]
        chain += namespace.ancestors.compactMap { namespaces[$0.id] }
        if !namespace.scope.isGlobal, let global = namespaces[StubScope.global.id] {
            chain.append(global)
        }
        return chain
    }

    /// Appends `request` to the logs of `chain`: every scope it was made in, and the
    /// global scope only for a request made outside any scope.
    private func log(_ request: RecordedRequest, in chain: [Namespace], isUnscoped: Bool) {
        for namespace in chain {
            if namespace.scope.isGlobal {
                guard isUnscoped else { continue }
                if namespace.requests.count >= Self.globalLogLimit {
                    namespace.requests.removeFirst(namespace.requests.count / 2)
                }
            }
            namespace.requests.append(request)
            notifyWaiters(of: request, in: namespace)
        }
    }

    private func unmatched(
        _ request: RecordedRequest,
        target: RequestTarget?,
        in namespace: Namespace,
        chain: [Namespace],
        isUnscoped: Bool
    ) -> URLError {
        var candidates: [(NearMiss, UInt64)] = []
        for member in chain {
            for entry in member.entries {
                let evaluation = entry.pattern.evaluate(request, target: target, exhaustive: true)
                let miss = NearMiss(
                    stub: entry.pattern.description,
                    location: entry.location,
                    scope: member.scope,
                    mismatches: evaluation.mismatches,
                    isUsedUp: evaluation.isMatch && entry.isUsedUp,
                    allowedRequests: entry.expectation.maximum
                )
                candidates.append((miss, entry.id))
            }
        }
        let nearMisses = NearMiss.nearest(candidates, ownScope: isUnscoped ? nil : namespace.scope)
        let message = isUnscoped
            ? StubFailure.noScopeMessage(request, nearMisses: nearMisses)
            : StubFailure.unmatchedMessage(request, in: namespace.title, nearMisses: nearMisses, stubCount: candidates.count)
        if !isUnscoped {
            namespace.problems.append(StubProblem(kind: .unmatchedRequest(request, nearMisses: nearMisses), message: message, location: namespace.location))
        }
        return StubFailure.error(message, url: request.url)
    }
}
