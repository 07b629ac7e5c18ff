#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension StubRegistry {
    /// What the registry decided for one request.
    enum Resolution: Sendable {
        /// Answer with this response, after its delay if it has one.
        case respond(StubResponse, LoggedExchange)
        /// Compute the response with the stub's closure, then answer.
        case compute(@Sendable (RecordedRequest) async throws -> StubResponse, LoggedExchange)
        /// Compute the response with the stub's synchronous closure, on the calling
        /// thread, then answer (see ``computedInline(_:for:in:pending:)``).
        case computeInline(@Sendable (RecordedRequest) throws -> StubResponse, LoggedExchange)
        /// Send the request to the real network and answer with what comes back.
        case passThrough(LoggedExchange)
        /// Fail the request with this error.
        case fail(any Error)

        /// Whether the answer waits for a delay or a closure, so that the scope
        /// must be able to fail it if it ends first (an inline closure too: the
        /// scope may end on another thread while it runs).
        var isDeferred: Bool {
            switch self {
            case let .respond(response, _): response.isDeferred
            case .compute, .computeInline, .passThrough: true
            case .fail: false
            }
        }
    }

    /// Records `request` in the scope it was made in and its enclosing scopes,
    /// finds the stub that answers it, takes one of that stub's uses and makes the
    /// stub's scenario transition, all in one critical section.
    ///
    /// Stubs are searched in the request's own scope, then in each enclosing scope,
    /// then in the global scope; in each, the newest matching stub wins (a stub
    /// whose scenario is not in the state it requires does not match). A deferred
    /// answer is registered as in flight for `pending`, so that the scope fails it
    /// if it ends first. Waiters that the request satisfies are woken after the
    /// lock is released.
    func resolve(_ urlRequest: URLRequest, body: Data?, scope: StubScope?, pending: some PendingAnswer) -> Resolution {
        guard urlRequest.url != nil else {
            // Nothing to match or log: no stub may answer a request for nothing.
            return .fail(StubFailure.error(FailureMessages.noURL(urlRequest), url: nil))
        }
        // Built before the lock is taken, and moved into the critical section (taken
        // out of the optional) rather than copied: nothing more to retain and release inside the lock.
        var unsequenced: RecordedRequest? = RecordedRequest(urlRequest: urlRequest, body: body, sequenceNumber: 0)
        var wakeUps: [(RequestWaiter, [RecordedRequest])] = []
        var liveCheck: (LoggedExchange, StubEntry)?
        let resolution = state.withLock { state in
            Self.resolve(unsequenced.moveOut(), scope: scope, pending: pending, state: &state, wakeUps: &wakeUps, liveCheck: &liveCheck)
        }
        for (waiter, requests) in wakeUps {
            waiter.resume(with: .success(requests))
        }
        if let (exchange, entry) = liveCheck {
            startLiveCheck(of: exchange, answeredBy: entry, in: scope ?? .global)
        }
        return resolution
    }

    private static func resolve(
        _ request: consuming RecordedRequest,
        scope: StubScope?,
        pending: some PendingAnswer,
        state: inout State,
        wakeUps: inout [(RequestWaiter, [RecordedRequest])],
        liveCheck: inout (LoggedExchange, StubEntry)?
    ) -> Resolution {
        request.sequenceNumber = state.nextRequestNumber
        state.nextRequestNumber += 1
        let home = scope ?? .global
        guard let homeState = state.scopes[home.id] else {
            return .fail(StubFailure.error(FailureMessages.scopeEnded(request, scope: home), url: request.url))
        }
        // The requests waiting, and this one: it is in flight for at least this instant.
        homeState.maxInFlight = max(homeState.maxInFlight, homeState.inFlight.count + 1)
        let chain = Self.chain(from: homeState, in: state)
        // Seeded scopes count the request among identical ones before anything else.
        let chaos = ChaosContext(counting: request, in: chain)
        var match: (StubEntry, RequestPattern.Evaluation)?
        for member in chain {
            match = member.bestMatch(for: request)
            if match != nil { break }
        }
        if let (entry, evaluation) = match {
            request.pathParameters = evaluation.pathParameters
            // Moved into the log, not copied: nothing more to retain inside the lock.
            let exchange = log(consume request, in: chain, isUnscoped: scope == nil, wakeUps: &wakeUps)
            let resolution = answer(exchange, with: entry, chaos: chaos)
            if homeState.checksLive, exchange.source != .network, exchange.source != .none {
                liveCheck = (exchange, entry)
            }
            if resolution.isDeferred {
                homeState.inFlight[ObjectIdentifier(pending)] = InFlightRequest(pending: pending, exchange: exchange)
            }
            return resolution
        }
        let exchange = log(copy request, in: chain, isUnscoped: scope == nil, wakeUps: &wakeUps)
        let usedUp = usedUpMatch(for: request, in: chain)
        // The nearest scope with a cassette decides: a replay-only scope nested in a
        // recording one still sends nothing to the network.
        if chain.first(where: { $0.cassette != nil })?.recording != nil, usedUp.map({ $0.origin != .written }) ?? true {
            // A recording scope sends what neither its stubs nor its cassette answer
            // (nor a cassette entry already replayed) to the network, and records it.
            exchange.source = .network
            homeState.inFlight[ObjectIdentifier(pending)] = InFlightRequest(pending: pending, exchange: exchange)
            return .passThrough(exchange)
        }
        let failure: URLError
        if let usedUp {
            // Over the stub's limit: the stub explains the failure, and the scope's
            // end reports its expectation as unmet, at the stub's line.
            usedUp.violations += 1
            failure = StubFailure.error(ChaosMessages.noting(FailureMessages.overLimit(request, stub: usedUp), chaos?.note), url: request.url)
        } else {
            failure = unmatched(request, in: homeState, chain: chain, isUnscoped: scope == nil, chaosNote: chaos?.note)
        }
        exchange.settleOnArrival(.failure(failure))
        return .fail(failure)
    }

    /// What `entry`, the stub that matched, answers the logged request with: takes
    /// one of its uses, and settles the exchange at once unless its answer is
    /// deferred.
    ///
    /// In a seeded scope (`chaos`), a request the stub would answer may instead be
    /// failed by an injected fault, which takes no use of the stub and is logged
    /// with no source; either answer gets the latency and hold the scope decided.
    /// Requests sent to the network are left alone.
    private static func answer(_ exchange: LoggedExchange, with entry: StubEntry, chaos: ChaosContext?) -> Resolution {
        let resolution: Resolution
        let plan = chaos?.plan(for: exchange.request, answeredBy: entry)
        if entry.expectation.forbidsRequests {
            entry.violations += 1
            resolution = .fail(StubFailure.error(ChaosMessages.noting(FailureMessages.forbidden(exchange.request, stub: entry), chaos?.note), url: exchange.request.url))
        } else if let refusal = entry.refusal {
            resolution = .fail(StubFailure.error(ChaosMessages.noting(FailureMessages.refused(exchange.request, stub: entry, reason: refusal), chaos?.note), url: exchange.request.url))
        } else if let plan, let fault = plan.fault {
            resolution = .respond(fault.delayed(adding: plan.delay), exchange)
        } else {
            entry.hits += 1
            // In the critical section that took the use: one move per answer,
            // however many requests race for the stub.
            entry.scenarioRule?.apply()
            exchange.answeredBy = entry // And so its source.
            if let response = entry.sameResponse() {
                resolution = .respond(response.delayed(adding: plan?.delay), exchange)
            } else {
                switch entry.source {
                case let .fixed(response):
                    resolution = .respond(entry.response(forUse: entry.hits, of: response).delayed(adding: plan?.delay), exchange)
                case let .dynamic(closure):
                    resolution = .compute(StubResponse.delaying(closure, by: plan?.delay), exchange)
                case let .inline(closure):
                    resolution = .computeInline(StubResponse.delaying(closure, by: plan?.delay), exchange)
                case .passThrough:
                    resolution = .passThrough(exchange)
                }
            }
        }
        switch resolution {
        case let .fail(error):
            exchange.settleOnArrival(.failure(error))
        case let .respond(response, _) where !response.isDeferred:
            exchange.settleOnArrival(RecordedExchange.Outcome(response, method: exchange.request.method))
        case .respond, .compute, .computeInline, .passThrough:
            break
        }
        return resolution
    }

    /// The newest stub of `chain`, nearest scope first, that matches `request` (and
    /// finds its scenario in the state it requires) but has answered every request
    /// its expectation allows.
    private static func usedUpMatch(for request: RecordedRequest, in chain: [ScopeState]) -> StubEntry? {
        for member in chain {
            for entry in member.entries.reversed() where entry.isUsedUp && entry.scenarioHolds {
                if entry.pattern.evaluate(request, exhaustive: false).isMatch {
                    return entry
                }
            }
        }
        return nil
    }

    /// Forgets a deferred request the moment its answer is produced or it is
    /// cancelled; returns whether it was still in flight. One whose outcome the
    /// log does not know yet was cancelled.
    ///
    /// `false` means its scope ended first and took it: the scope's end fails it
    /// through ``PendingAnswer/abandon(with:)`` and reports it, so the caller must
    /// drop the answer it produced. Whoever removes a request from the in-flight
    /// list decides its outcome, under the lock, so a request is never both reported
    /// as abandoned and answered.
    @discardableResult
    func settle(_ pending: some PendingAnswer, in scope: StubScope?) -> Bool {
        state.withLock { state in
            guard let flight = state.scopes[(scope ?? .global).id]?.inFlight.removeValue(forKey: ObjectIdentifier(pending)) else {
                return false
            }
            flight.exchange.settle(.cancelled)
            if case .cancelled = flight.exchange.outcome {
                flight.exchange.answeredBy?.cancellations += 1
            }
            return true
        }
    }

    /// Forgets a deferred request answered on the thread that resolved it and
    /// writes down how it ended, in one critical section; returns whether it was
    /// still in flight (`false`: its scope ended first and failed it, see
    /// ``settle(_:in:)``).
    func settle(_ pending: some PendingAnswer, in scope: StubScope?, as outcome: RecordedExchange.Outcome) -> Bool {
        state.withLock { state in
            guard let flight = state.scopes[(scope ?? .global).id]?.inFlight.removeValue(forKey: ObjectIdentifier(pending)) else {
                return false
            }
            flight.exchange.settle(outcome)
            return true
        }
    }

    /// Writes down how a deferred request ended, unless a cancel or its scope's end
    /// came first.
    func record(_ outcome: RecordedExchange.Outcome, of exchange: LoggedExchange) {
        state.withLock { _ in exchange.settle(outcome) }
    }

    /// The scope, its enclosing scopes that are still open, and the global scope.
    static func chain(from scopeState: ScopeState, in state: State) -> [ScopeState] {
        var chain: [ScopeState] = []
        chain.reserveCapacity(scopeState.ancestors.count + 2)
        chain.append(scopeState)
        for ancestor in scopeState.ancestors {
            if let open = state.scopes[ancestor.id] {
                chain.append(open)
            }
        }
        if !scopeState.scope.isGlobal, let global = state.scopes[StubScope.global.id] {
            chain.append(global)
        }
        return chain
    }

    /// Appends `request` to the logs of `chain`: every scope it was made in, and the
    /// global scope only for a request made outside any scope (its log keeps the
    /// most recent ``globalLogLimit``, dropping the oldest as each new one arrives).
    private static func log(
        _ request: consuming RecordedRequest,
        in chain: [ScopeState],
        isUnscoped: Bool,
        wakeUps: inout [(RequestWaiter, [RecordedRequest])]
    ) -> LoggedExchange {
        let exchange = LoggedExchange(consume request, clock: chain[0].clock)
        for member in chain {
            if member.scope.isGlobal, !isUnscoped {
                continue
            }
            member.log.append(exchange)
            collectWaiters(satisfiedBy: exchange.request, in: member, into: &wakeUps)
        }
        return exchange
    }

    private static func unmatched(_ request: RecordedRequest, in home: ScopeState, chain: [ScopeState], isUnscoped: Bool, chaosNote: String?) -> URLError {
        var candidates: [(NearMiss, UInt64)] = []
        for member in chain {
            for entry in member.entries {
                let evaluation = entry.pattern.evaluate(request, exhaustive: true)
                let miss = NearMiss(
                    stub: entry.pattern.description,
                    location: entry.location,
                    scope: member.scope,
                    mismatches: evaluation.mismatches + (entry.scenarioRule?.mismatches ?? [])
                )
                candidates.append((miss, entry.id))
            }
        }
        let nearMisses = NearMiss.nearest(candidates, ownScope: isUnscoped ? nil : home.scope)
        let message = isUnscoped
            ? FailureMessages.noScope(request, nearMisses: nearMisses)
            : ChaosMessages.noting(
                FailureMessages.unmatched(request, in: home.title, nearMisses: nearMisses, stubCount: candidates.count)
                    + (home.cassette.map { "\n" + RecordingMessages.replayHint($0) } ?? ""),
                chaosNote
            )
        if !isUnscoped {
            // Where the scope was opened; for a scope opened without a location (an
            // XCTest method's), the nearest stub, else the scope's first stub.
            let location = home.location ?? nearMisses.first?.location ?? home.entries.first?.location
            home.problems.append(StubProblem(kind: .unmatchedRequest(request, nearMisses: nearMisses), message: message, location: location))
        }
        return StubFailure.error(message, url: request.url)
    }
}

extension Optional {
    /// The value, leaving `nil` behind: a move, not a copy (the standard library's
    /// `take()` is not in every SDK the package supports).
    mutating func moveOut() -> Wrapped {
        switch consume self {
        case let .some(value):
            self = nil
            return value
        case .none:
            preconditionFailure("moveOut() of nil")
        }
    }
}
