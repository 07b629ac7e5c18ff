/// One scope's seeded faults and response order: its seed, its rules, and how
/// many requests for each method and URL it received since it got them.
///
/// The faults feature of a scope (see ``ScopeFeature``), attached by its first
/// `injectFaults` or `shuffleResponseOrder` call; touched only while the
/// registry's lock is held.
final class ScopeFaults: ScopeFeature {
    /// What every decision of the scope draws from.
    let seed: UInt64
    /// Where ``seed`` came from.
    let origin: FaultSeed.Origin
    /// The `seed:` argument of the call that attached the scope's faults, if it had one.
    let requestedSeed: UInt64?
    /// The call that fixed the seed.
    let seededAt: StubSourceLocation
    /// The `injectFaults` calls, oldest first.
    private(set) var faultRules: [FaultRule] = []
    /// The `shuffleResponseOrder` calls, oldest first.
    private(set) var orderRules: [ResponseOrderRule] = []
    /// How many requests with each ``RequestIdentity/key(of:)`` the scope received.
    private var arrivals: [String: Int] = [:]

    init(seed: UInt64, origin: FaultSeed.Origin, requestedSeed: UInt64?, seededAt: StubSourceLocation) {
        self.seed = seed
        self.origin = origin
        self.requestedSeed = requestedSeed
        self.seededAt = seededAt
    }

    func add(_ rule: FaultRule) {
        faultRules.append(rule)
    }

    func add(_ rule: ResponseOrderRule) {
        orderRules.append(rule)
    }

    /// The identity the next request with `key` gets: the `n`-th such request
    /// (from 0) of the scope. Nothing is counted until ``count(_:)``.
    func identity(of key: String) -> RequestIdentity {
        RequestIdentity(key: key, occurrence: arrivals[key, default: 0])
    }

    /// Counts a request with `key`, in the critical section that asked for its
    /// ``identity(of:)``.
    func count(_ key: String) {
        arrivals[key, default: 0] += 1
    }

    /// The newest `injectFaults` call that covers `request`.
    func faultRule(for request: RecordedRequest, predicates: inout PredicateResults) -> FaultRule? {
        faultRules.last { $0.pattern.evaluate(request, exhaustive: false, predicates: &predicates).isMatch }
    }

    /// The newest `shuffleResponseOrder` call that covers `request`.
    func orderRule(for request: RecordedRequest, predicates: inout PredicateResults) -> ResponseOrderRule? {
        orderRules.last { $0.pattern.evaluate(request, exhaustive: false, predicates: &predicates).isMatch }
    }

    /// Why a later call's `seed:` argument cannot be honoured, or `nil` when it
    /// agrees with the scope's seed.
    func conflict(withSeed seed: UInt64) -> String? {
        if let requestedSeed {
            return requestedSeed == seed ? nil : FaultMessages.conflictingSeed(seed, first: requestedSeed, at: seededAt)
        }
        return FaultMessages.lateSeed(seed, scopeSeed: self.seed, at: seededAt)
    }

    /// The line every failure message of the scope ends with: the seed, and how to
    /// replay it.
    var note: String {
        FaultMessages.seedNote(seed, origin: origin, faults: !faultRules.isEmpty, order: !orderRules.isEmpty)
    }

    static func part(for request: borrowing RecordedRequest, in chain: ScopeChain) -> (any RequestPart)? {
        RequestFaults(of: request, in: chain)
    }

    /// The seed lines of the seeded scopes of `chain`, nearest first.
    static func note(for chain: ScopeChain) -> String? {
        let seeded = chain.compactMap { $0.feature(ScopeFaults.self) }
        return seeded.isEmpty ? nil : RequestFaults.note(seeded)
    }
}
