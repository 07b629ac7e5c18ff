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
    ///
    /// Predicates are the user's code and never run under the lock: a critical
    /// section that meets one whose result it does not know changes nothing and
    /// hands it back; it runs here, with the lock released, and matching starts
    /// again with its result (see ``PredicateResults``).
    nonisolated func resolve(_ urlRequest: URLRequest, body: Data?, route: RequestRoute, pending: some PendingAnswer) -> Resolution {
        guard let resolution = resolve(urlRequest, body: body, route: route, pending: pending, replacingFlight: false) else {
            // Only a request that replaces a flight can find it taken.
            preconditionFailure("URLStubs: a request that replaced no flight found its flight taken")
        }
        return resolution
    }

    /// Resolves the request an answer of `pending` in flight redirects to, as
    /// ``resolve(_:body:route:pending:)`` does, in place of that answer: the
    /// critical section that logs the new request also settles the answer it
    /// follows (``settle(_:on:)``), and `pending` stays in flight for the new
    /// request whatever its answer (one given at once too, which is settled on
    /// arrival and may redirect again), until the caller settles it: no moment is
    /// left in which a cancel or the scope's end finds nothing in flight and is
    /// lost. Returns `nil` when one of them took the request first: it decided the
    /// request's outcome, nothing is logged, and the caller drops the hop.
    nonisolated func resolve(hop urlRequest: URLRequest, replacingFlightOf pending: some PendingAnswer, route: RequestRoute) -> Resolution? {
        resolve(urlRequest, body: urlRequest.httpBody, route: route, pending: pending, replacingFlight: true)
    }

    /// How one critical section of a resolution ended.
    private enum Round {
        /// The request is resolved.
        case resolved(Resolution)
        /// A predicate must run first: the request was handed back.
        case needsPredicates
        /// The flight the request replaces was taken by a cancel or the scope's end.
        case taken
    }

    /// The rounds of ``resolve(_:body:route:pending:)``: critical sections until
    /// one resolves the request, the predicates they need run between them; `nil`
    /// when the flight it replaces was taken.
    private nonisolated func resolve(_ urlRequest: URLRequest, body: Data?, route: RequestRoute, pending: some PendingAnswer, replacingFlight: Bool) -> Resolution? {
        guard let url = urlRequest.url else {
            // The answer it would replace stays in flight, for the caller to settle.
            if replacingFlight, !isInFlight(pending, on: route) {
                return nil
            }
            // Nothing to match or log: no stub may answer a request for nothing.
            return .fail(StubFailure.error(FailureMessages.noURL(urlRequest), url: nil))
        }
        // Built before the lock is taken, and moved into the critical section (taken
        // out of the optional) rather than copied: nothing more to retain and release
        // inside the lock. A round that needs predicates moves it back.
        var unresolved: RecordedRequest? = RecordedRequest(urlRequest: urlRequest, url: url, body: body, sequenceNumber: 0)
        var predicates = PredicateResults.lookedUp
        var wakeUps: [(RequestWaiter, [RecordedRequest])] = []
        var afterLock: [AfterLock] = []
        while true {
            let round = withIsolation { registry in
                registry.resolve(unresolved.moveOut(), handingBackTo: &unresolved, route: route, pending: pending, replacingFlight: replacingFlight, predicates: &predicates, wakeUps: &wakeUps, afterLock: &afterLock)
            }
            switch round {
            case .needsPredicates:
                if let request = unresolved {
                    predicates.runNeeded(on: request)
                }
                continue
            case .taken:
                return nil
            case let .resolved(resolution):
                for (waiter, requests) in wakeUps {
                    waiter.resume(with: .success(requests))
                }
                for work in afterLock {
                    work(self)
                }
                return resolution
            }
        }
    }

    /// What matching chose for a request, decided before anything changes.
    private struct Choice {
        /// The parts of the optional features the request's scopes use.
        var parts: RequestParts
        /// The stub that answers, with what its pattern captured.
        var match: StubMatch?
        /// What the features change in the matched stub's answer.
        var change: AnswerChange?
        /// The waiters of each scope the request is logged in that it matches.
        var waiters: [(ScopeState, [UInt64])] = []
        /// With no match: the used-up stub that would have answered.
        var usedUp: StubEntry?
        /// With no match: whether a feature sends the request to the network.
        var passesThrough = false
        /// With no match, no used-up stub and no pass through: the closest stubs,
        /// and how many stubs were compared.
        var nearMisses: (misses: [NearMiss], stubCount: Int)?
    }

    /// One critical section of ``resolve(_:body:route:pending:)``: chooses, then
    /// changes the registry, or changes nothing when a predicate must run first
    /// (the request handed back in `unresolved`), or when the flight it replaces
    /// was taken.
    private func resolve(
        _ request: consuming RecordedRequest,
        handingBackTo unresolved: inout RecordedRequest?,
        route: RequestRoute,
        pending: some PendingAnswer,
        replacingFlight: Bool,
        predicates: inout PredicateResults,
        wakeUps: inout [(RequestWaiter, [RecordedRequest])],
        afterLock: inout [AfterLock]
    ) -> Round {
        if request.sequenceNumber == 0 {
            // Numbered in its first round: its place among the requests as they arrived.
            request.sequenceNumber = nextRequestNumber
            nextRequestNumber += 1
        }
        let home = route.home
        guard let homeState = scopes[home.id] else {
            // A flight it replaces was taken by the scope's end, which failed the request.
            guard !replacingFlight else { return .taken }
            return .resolved(.fail(StubFailure.error(FailureMessages.scopeEnded(request, scope: home), url: request.url)))
        }
        let chain = chain(from: homeState)
        let isUnscoped = home.isGlobal // `.scope(.global)` too: the global scope's own request.
        // Filled in place: a returned choice was copied, a retain per part.
        var choice = Choice(parts: RequestParts(for: request, in: chain))
        guard Self.choose(&choice, for: request, in: chain, home: homeState, isUnscoped: isUnscoped, predicates: &predicates) else {
            unresolved = consume request
            return .needsPredicates
        }
        if replacingFlight, !Self.settleFlight(of: pending, in: homeState) {
            return .taken
        }
        // The requests waiting, and this one: it is in flight for at least this instant.
        homeState.maxInFlight = max(homeState.maxInFlight, homeState.inFlight.count + 1)
        // The request arrives for the features (seeded scopes count it among identical ones).
        choice.parts.arrived()
        if let match = choice.match {
            let entry = match.entry
            request.captures = match.captures
            // Moved into the log, not copied: nothing more to retain inside the lock.
            let exchange = Self.log(consume request, in: chain, isUnscoped: isUnscoped, waiters: choice.waiters, wakeUps: &wakeUps)
            let resolution = Self.answer(exchange, with: entry, change: choice.change, parts: choice.parts)
            if !choice.parts.isEmpty {
                afterLock = choice.parts.answered(exchange, by: entry, home: homeState)
            }
            if resolution.isDeferred || replacingFlight {
                homeState.inFlight[ObjectIdentifier(pending)] = InFlightRequest(pending: pending, exchange: exchange)
            }
            return .resolved(resolution)
        }
        let exchange = Self.log(copy request, in: chain, isUnscoped: isUnscoped, waiters: choice.waiters, wakeUps: &wakeUps)
        if choice.passesThrough {
            // Sent to the network (by a recording scope), and logged as its answer.
            exchange.source = .network
            homeState.inFlight[ObjectIdentifier(pending)] = InFlightRequest(pending: pending, exchange: exchange)
            return .resolved(.passThrough(exchange))
        }
        let failure: URLError
        if let usedUp = choice.usedUp {
            // Over the stub's limit: the stub explains the failure, and the scope's
            // end reports its expectation as unmet, at the stub's line.
            usedUp.violations += 1
            failure = StubFailure.error(FaultMessages.noting(FailureMessages.overLimit(request, stub: usedUp), choice.parts.note), url: request.url)
        } else {
            let nearMisses = choice.nearMisses ?? ([], 0)
            failure = Self.unmatched(request, in: homeState, nearMisses: nearMisses.misses, stubCount: nearMisses.stubCount, isUnscoped: isUnscoped, parts: choice.parts)
        }
        // Boxed as an error once: the log and the answer share the box.
        let error: any Error = failure
        exchange.settleOnArrival(.failure(error))
        if replacingFlight {
            homeState.inFlight[ObjectIdentifier(pending)] = InFlightRequest(pending: pending, exchange: exchange)
        }
        return .resolved(.fail(error))
    }

    /// Chooses what answers `request` in `chain`, into `choice`, changing nothing
    /// in the registry: the stub, the changes the features make, the waiters it
    /// matches, or why nothing answers. `false` when a predicate whose result
    /// `predicates` does not know was met (it is listed there).
    private static func choose(
        _ choice: inout Choice,
        for request: RecordedRequest,
        in chain: ScopeChain,
        home: ScopeState,
        isUnscoped: Bool,
        predicates: inout PredicateResults
    ) -> Bool {
        for member in chain {
            choice.match = member.bestMatch(for: request, predicates: &predicates)
            if choice.match != nil { break }
        }
        // A newer stub whose predicate is not known yet may be the one: decide nothing.
        guard predicates.isComplete else { return false }
        for member in chain where !(member.scope.isGlobal && !isUnscoped) && !member.waiters.isEmpty {
            let matching = member.waiters.filter { _, waiter in
                waiter.pattern.evaluate(request, exhaustive: false, predicates: &predicates).isMatch
            }
            if !matching.isEmpty {
                choice.waiters.append((member, Array(matching.keys)))
            }
        }
        if let entry = choice.match?.entry {
            choice.change = choice.parts.change(forAnswerOf: entry, to: request, predicates: &predicates)
            return predicates.isComplete
        }
        choice.usedUp = usedUpMatch(for: request, in: chain, predicates: &predicates)
        guard predicates.isComplete else { return false }
        choice.passesThrough = choice.parts.passesThrough(usedUp: choice.usedUp)
        if !choice.passesThrough, choice.usedUp == nil {
            choice.nearMisses = nearMisses(for: request, in: chain, home: home, isUnscoped: isUnscoped, predicates: &predicates)
        }
        return predicates.isComplete
    }

    /// What `entry`, the stub that matched, answers the logged request with: takes
    /// one of its uses, and settles the exchange at once unless its answer is
    /// deferred.
    ///
    /// A feature may `change` the answer: a request the stub would answer may
    /// instead be failed (an injected fault), which takes no use of the stub and is
    /// logged with no source; either answer gets the delay the change adds.
    private static func answer(_ exchange: LoggedExchange, with entry: StubEntry, change: AnswerChange?, parts: RequestParts) -> Resolution {
        let resolution: Resolution
        if entry.expectation.forbidsRequests {
            entry.violations += 1
            resolution = .fail(StubFailure.error(FaultMessages.noting(FailureMessages.forbidden(exchange.request, stub: entry), parts.note), url: exchange.request.url))
        } else if let refusal = entry.refusal {
            resolution = .fail(StubFailure.error(FaultMessages.noting(FailureMessages.refused(exchange.request, stub: entry, reason: refusal), parts.note), url: exchange.request.url))
        } else if let change, let replacement = change.replacement {
            resolution = .respond(replacement.delayed(adding: change.delay), exchange)
        } else {
            entry.hits += 1
            // In the critical section that took the use: one move per answer,
            // however many requests race for the stub.
            if entry.hasRule {
                entry.rule?.apply()
            }
            exchange.answeredBy = entry // And so its source.
            if let response = entry.sameResponse() {
                resolution = .respond(response.delayed(adding: change?.delay), exchange)
            } else {
                switch entry.source {
                case let .fixed(response):
                    resolution = .respond(response.response(forUse: entry.hits).delayed(adding: change?.delay), exchange)
                case let .dynamic(closure):
                    resolution = .compute(StubResponse.delaying(closure, by: change?.delay), exchange)
                case let .inline(closure):
                    resolution = .computeInline(StubResponse.delaying(closure, by: change?.delay), exchange)
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
    private static func usedUpMatch(for request: RecordedRequest, in chain: ScopeChain, predicates: inout PredicateResults) -> StubEntry? {
        for member in chain {
            for entry in member.entries.reversed() where entry.isUsedUp && entry.ruleHolds {
                if entry.pattern.evaluate(request, exhaustive: false, predicates: &predicates).isMatch {
                    return entry
                }
            }
        }
        return nil
    }

    /// Forgets a deferred request the moment its answer is produced, keeping the
    /// outcome its producer wrote down; returns whether it was still in flight.
    ///
    /// `false` means a cancel or its scope's end came first and took it: that one
    /// wrote the outcome (``cancel(_:on:)``, or the scope's end, which fails it
    /// through ``PendingAnswer/abandon(with:)`` and reports it), so the caller must
    /// drop the answer it produced. Whoever removes a request from the in-flight
    /// list decides its outcome, under the lock, even over an outcome the producer
    /// wrote just before: a request is never both reported as abandoned (or
    /// cancelled) and logged as answered.
    @discardableResult
    nonisolated func settle(_ pending: some PendingAnswer, on route: RequestRoute) -> Bool {
        withIsolation { registry in
            guard let homeState = registry.scopes[route.home.id] else { return false }
            return Self.settleFlight(of: pending, in: homeState)
        }
    }

    /// Whether `pending` is in flight in its request's scope.
    private nonisolated func isInFlight(_ pending: some PendingAnswer, on route: RequestRoute) -> Bool {
        withIsolation { $0.scopes[route.home.id]?.inFlight[ObjectIdentifier(pending)] != nil }
    }

    /// Takes `pending` out of flight in `homeState`, its request's scope, keeping
    /// the outcome its producer wrote down: what ``settle(_:on:)`` does, in the
    /// caller's critical section. `false` when it was no longer in flight.
    private static func settleFlight(of pending: some PendingAnswer, in homeState: ScopeState) -> Bool {
        guard let flight = homeState.inFlight.removeValue(forKey: ObjectIdentifier(pending)) else {
            return false
        }
        if flight.exchange.outcome.isWaiting {
            // A producer that wrote nothing down was cancelled.
            flight.exchange.settle(.cancelled)
            flight.exchange.answeredBy?.cancellations += 1
        }
        return true
    }

    /// Forgets a deferred request that was cancelled, and writes it down as
    /// cancelled, over any outcome its producer wrote before the cancel took it
    /// (the producer's answer is then dropped: see ``settle(_:on:)``); returns
    /// whether it was still in flight.
    @discardableResult
    nonisolated func cancel(_ pending: some PendingAnswer, on route: RequestRoute) -> Bool {
        withIsolation { registry in
            guard let flight = registry.scopes[route.home.id]?.inFlight.removeValue(forKey: ObjectIdentifier(pending)) else {
                return false
            }
            flight.exchange.decide(.cancelled)
            flight.exchange.answeredBy?.cancellations += 1
            return true
        }
    }

    /// Forgets a deferred request answered on the thread that resolved it and
    /// writes down how it ended, in one critical section; returns whether it was
    /// still in flight (`false`: its scope ended first and failed it, see
    /// ``settle(_:on:)``).
    nonisolated func settle(_ pending: some PendingAnswer, on route: RequestRoute, as outcome: RecordedExchange.Outcome) -> Bool {
        withIsolation { registry in
            guard let flight = registry.scopes[route.home.id]?.inFlight.removeValue(forKey: ObjectIdentifier(pending)) else {
                return false
            }
            flight.exchange.settle(outcome)
            return true
        }
    }

    /// Writes down how a deferred request ended, unless a cancel or its scope's end
    /// came first; the request stays in flight until its producer settles it
    /// (``settle(_:on:)``), and a cancel or a scope's end before then decides.
    nonisolated func record(_ outcome: RecordedExchange.Outcome, of exchange: LoggedExchange) {
        withIsolation { _ in exchange.settle(outcome) }
    }

    /// Whether a scope of ``chain(from:)`` takes part in requests, found without
    /// building the chain (most scopes, and so most chains, use no feature).
    func chainTakesPartInRequests(from scopeState: ScopeState) -> Bool {
        if scopeState.takesPartInRequests {
            return true
        }
        for ancestor in scopeState.ancestors where scopes[ancestor.id]?.takesPartInRequests == true {
            return true
        }
        return !scopeState.scope.isGlobal && globalState.takesPartInRequests
    }

    /// The scope, its enclosing scopes that are still open, and the global scope.
    func chain(from scopeState: ScopeState) -> ScopeChain {
        var enclosing: [ScopeState] = []
        if !scopeState.ancestors.isEmpty {
            enclosing.reserveCapacity(scopeState.ancestors.count)
            for ancestor in scopeState.ancestors {
                if let open = scopes[ancestor.id] {
                    enclosing.append(open)
                }
            }
        }
        return ScopeChain(home: scopeState, enclosing: enclosing, global: globalState)
    }

    /// Appends `request` to the logs of `chain`: every scope it was made in, and the
    /// global scope only for a request made outside any scope (its log keeps the
    /// most recent ``globalLogLimit``, dropping the oldest as each new one arrives).
    ///
    /// `waiters` are the waiters of each scope that the request matches (chosen
    /// beforehand, as their patterns may have predicates): those it completes are
    /// listed in `wakeUps`, to be resumed once the lock is released.
    private static func log(
        _ request: consuming RecordedRequest,
        in chain: ScopeChain,
        isUnscoped: Bool,
        waiters: [(ScopeState, [UInt64])],
        wakeUps: inout [(RequestWaiter, [RecordedRequest])]
    ) -> LoggedExchange {
        let exchange = LoggedExchange(consume request, clock: chain[0].clock)
        for member in chain {
            if member.scope.isGlobal, !isUnscoped {
                continue
            }
            member.log.append(exchange)
        }
        for (member, ids) in waiters {
            collectWaiters(ids, satisfiedBy: exchange.request, in: member, into: &wakeUps)
        }
        return exchange
    }

    /// Every stub of `chain` compared with `request` in full: the closest, and how
    /// many stubs were compared.
    private static func nearMisses(
        for request: RecordedRequest,
        in chain: ScopeChain,
        home: ScopeState,
        isUnscoped: Bool,
        predicates: inout PredicateResults
    ) -> (misses: [NearMiss], stubCount: Int) {
        var candidates: [NearMiss.Candidate<StubEntry>] = []
        for member in chain {
            for entry in member.entries {
                var mismatches = entry.pattern.evaluate(request, exhaustive: true, predicates: &predicates).mismatches
                if let rule = entry.rule {
                    mismatches += rule.mismatches
                }
                candidates.append(NearMiss.Candidate(stub: entry, scope: member.scope, order: entry.id, mismatches: mismatches))
            }
        }
        // Only the nearest are written out: a pattern's words cost more than its comparison.
        let nearest = NearMiss.nearest(candidates, ownScope: isUnscoped ? nil : home.scope).map { candidate in
            NearMiss(stub: candidate.stub.pattern.description, location: candidate.stub.location, scope: candidate.scope, mismatches: candidate.mismatches)
        }
        return (nearest, candidates.count)
    }

    private static func unmatched(
        _ request: RecordedRequest,
        in home: ScopeState,
        nearMisses: [NearMiss],
        stubCount: Int,
        isUnscoped: Bool,
        parts: RequestParts
    ) -> URLError {
        guard !isUnscoped else {
            return StubFailure.error(FailureMessages.noScope(request, nearMisses: nearMisses), url: request.url)
        }
        // The hints appended in place: `+` would copy the whole report to add nothing.
        var report = FailureMessages.unmatched(request, in: home.title, nearMisses: nearMisses, stubCount: stubCount)
        parts.appendUnmatchedHints(to: &report)
        let message = FaultMessages.noting(report, parts.note)
        // Where the scope was opened; for a scope opened without a location (an
        // XCTest method's), the nearest stub, else the scope's first stub.
        let location = home.location ?? nearMisses.first?.location ?? home.entries.first?.location
        home.problems.append(StubProblem(kind: .unmatchedRequest(request, nearMisses: nearMisses), message: message, location: location))
        return StubFailure.error(message, url: request.url)
    }
}
