import Foundation

/// One scope's stubs, exchange log and bookkeeping: state of the registry, touched
/// only in its isolation (see ``StubRegistry``), or through an ``EndedScope``.
final class ScopeState {
    /// The key of the exact index: a method (or `nil` for any) and a route key.
    struct ExactKey: Hashable {
        var method: String?
        var route: String
    }

    let scope: StubScope
    /// The clock the scope times its answers on.
    let clock: ScopeClock
    /// The most requests made in the scope that were waiting for their answers at once.
    var maxInFlight = 0
    let name: String?
    /// The enclosing scopes, innermost first (the global scope is not among them).
    let ancestors: [StubScope]
    let location: StubSourceLocation?

    /// How many stubs a scope holds before it indexes them: below it, comparing
    /// each stub costs less than hashing the request, and registering a stub
    /// allocates nothing more than the entry (most tests register a handful).
    static let indexThreshold = 8
    /// Whether ``exact`` and ``general`` index the stubs (the scope has held more
    /// than ``indexThreshold``); until then ``entries`` is all there is.
    private var isIndexed = false
    /// Stubs with an origin and a literal path, by method and route, oldest first.
    private(set) var exact: [ExactKey: [StubEntry]] = [:]
    /// How many of the exact stubs match any method (their key's method is `nil`):
    /// while there are none, a request looks up one key, not two.
    private var anyMethodExactCount = 0
    /// Stubs with a template, a path-only URL, no URL or a malformed pattern,
    /// oldest first.
    private(set) var general: [StubEntry] = []
    /// Every stub, oldest first, for verification and near-miss reports.
    private(set) var entries: [StubEntry] = []

    /// Every request the scope received, in order, with its outcome (for the
    /// global scope, the most recent ``StubRegistry/globalLogLimit``).
    var log: ExchangeLog
    /// What went wrong so far, reported when the scope ends.
    var problems: [StubProblem] = []
    /// Requests whose answer is delayed or computed, still waiting for it.
    var inFlight: [ObjectIdentifier: InFlightRequest] = [:]
    /// Callers waiting for a request that has not arrived yet.
    var waiters: [UInt64: RequestWaiter] = [:]
    /// The optional features the scope uses (faults, recording, ...), at most one
    /// of each kind; empty for a scope that uses none (see ``ScopeFeature``).
    private(set) var features: [any ScopeFeature] = []

    /// Whether one of ``features`` takes part in resolving requests (its kind is
    /// one of ``StubRegistry/featureKinds``): a scope whose chain has none skips
    /// every request hook. Read for each request, so kept as features are attached.
    private(set) var takesPartInRequests = false

    /// Every request the scope received, in order.
    var requests: [RecordedRequest] {
        log.inOrder.map(\.request)
    }

    /// Each stub, oldest first, with its hits.
    var usage: [StubUsage] {
        // A loop by index: `map` is generic code in a debug build (where tests run).
        var usage: [StubUsage] = []
        usage.reserveCapacity(entries.count)
        var index = 0
        while index < entries.count {
            let entry = entries[index]
            usage.append(StubUsage(pattern: entry.pattern, location: entry.location, hits: entry.hits))
            index += 1
        }
        return usage
    }

    init(scope: StubScope, name: String?, ancestors: [StubScope], location: StubSourceLocation?, clock: ScopeClock, logLimit: Int? = nil) {
        self.scope = scope
        self.clock = clock
        self.name = name
        self.ancestors = ancestors
        self.location = location
        log = ExchangeLog(limit: logLimit)
        for kind in StubRegistry.featureKinds {
            kind.type.opened(self)
        }
    }

    /// The scope written for messages: `scope #3 "name" (opened at File.swift:12)`;
    /// built once, at the first message that needs it (an unmatched request, or at
    /// the end an abandoned request or a waiter): most scopes never need it.
    private(set) lazy var title = ScopeMessages.title(of: scope, name: name, location: location)

    /// Attaches `feature`, replacing the scope's feature of its kind if it has one.
    func add(_ feature: any ScopeFeature) {
        features.removeAll { type(of: $0) == type(of: feature) }
        features.append(feature)
        takesPartInRequests = features.contains { feature in
            StubRegistry.featureKinds.contains { ObjectIdentifier($0.type) == ObjectIdentifier(type(of: feature)) }
        }
    }

    func add(_ entry: StubEntry) {
        if entries.isEmpty {
            // Room for the stubs a scope compares one by one, in one allocation
            // rather than one per doubling.
            entries.reserveCapacity(Self.indexThreshold)
        }
        entries.append(entry)
        if isIndexed {
            index(entry)
        } else if entries.count > Self.indexThreshold {
            isIndexed = true
            for entry in entries {
                index(entry)
            }
        }
    }

    /// Adds `entry` to ``exact`` or ``general``.
    private func index(_ entry: StubEntry) {
        guard entry.pattern.problem == nil else {
            return // Listed in reports, never matched.
        }
        if let route = entry.exactRoute {
            exact[ExactKey(method: entry.pattern.method, route: route), default: []].append(entry)
            if entry.pattern.method == nil {
                anyMethodExactCount += 1
            }
        } else {
            general.append(entry)
        }
    }

    func remove(stubID: UInt64) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == stubID }) else { return false }
        let entry = entries.remove(at: index)
        guard isIndexed else { return true }
        if let route = entry.exactRoute {
            let key = ExactKey(method: entry.pattern.method, route: route)
            exact[key]?.removeAll { $0.id == stubID }
            if entry.pattern.method == nil {
                anyMethodExactCount -= 1
            }
            if exact[key]?.isEmpty == true {
                exact[key] = nil
            }
        } else {
            general.removeAll { $0.id == stubID }
        }
        return true
    }

    func removeAll() {
        isIndexed = false
        exact = [:]
        anyMethodExactCount = 0
        general = []
        entries = []
    }

    /// The newest stub that matches `request`, still has a use left and whose rule
    /// holds (its scenario is in the state it requires), with what its pattern
    /// captured.
    ///
    /// In a scope that indexes its stubs, exact stubs are found by hashing the
    /// method and route, and only stubs that are not exact are compared one by
    /// one; in a smaller scope every stub is compared, newest first. A stub whose
    /// predicate's result is not in `predicates` does not match, and the predicate
    /// is listed as needed.
    func bestMatch(for request: RecordedRequest, predicates: inout PredicateResults) -> StubMatch? {
        guard isIndexed else {
            // Newest first, by index, with the request's route read once: in a
            // debug build (where tests run) a reversed collection's iterator and an
            // optional's `map` are generic code, for every stub and request.
            let route = request.target?.routeKey
            var index = entries.count - 1
            while index >= 0 {
                let entry = entries[index]
                index -= 1
                guard !entry.isUsedUp, entry.ruleHolds else { continue }
                // What the index's key would guarantee, compared as the index would.
                let isExact = entry.exactRoute != nil
                if isExact {
                    if entry.exactRoute != route {
                        continue
                    }
                    if let method = entry.pattern.method, method != request.method {
                        continue
                    }
                }
                let evaluation = entry.pattern.evaluate(request, exhaustive: false, skippingRoute: isExact, predicates: &predicates)
                if evaluation.isMatch {
                    return StubMatch(entry: entry, captures: evaluation.captures)
                }
            }
            return nil
        }
        var best: StubMatch?
        func consider(_ bucket: [StubEntry]?, isExact: Bool) {
            guard let bucket else { return }
            for entry in bucket.reversed() {
                if let best, best.entry.id > entry.id { return }
                guard !entry.isUsedUp, entry.ruleHolds else { continue }
                // An exact bucket's key already guarantees the method, origin and path.
                let evaluation = entry.pattern.evaluate(request, exhaustive: false, skippingRoute: isExact, predicates: &predicates)
                if evaluation.isMatch {
                    best = StubMatch(entry: entry, captures: evaluation.captures)
                    return
                }
            }
        }
        if let route = request.target?.routeKey {
            consider(exact[ExactKey(method: request.method, route: route)], isExact: true)
            if anyMethodExactCount > 0 {
                consider(exact[ExactKey(method: nil, route: route)], isExact: true)
            }
        }
        consider(general, isExact: false)
        return best
    }
}

/// A request whose answer is delayed or computed, still waiting for it; the scope
/// fails it if it ends first.
struct InFlightRequest {
    let pending: any PendingAnswer
    let exchange: LoggedExchange

    var request: RecordedRequest {
        exchange.request
    }
}
