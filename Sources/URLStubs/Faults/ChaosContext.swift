/// The seeded scopes a request was made in, nearest first, each with the
/// request's identity there; built once per request, in the registry's critical
/// section.
struct ChaosContext {
    /// What the covering rules decided for a request a stub answers.
    struct Plan {
        /// The answer of the fault the request fails with, instead of its stub's.
        var fault: StubResponse?
        /// The latency and the hold to add to the answer, whoever gives it.
        var delay: Duration
    }

    private let members: [(chaos: ScopeChaos, identity: RequestIdentity)]
    /// The request's ``RequestIdentity/key(of:)``.
    private let key: String

    /// The identities `request` gets in every seeded scope of `chain`; `nil` when
    /// none is seeded, so that scopes without faults pay nothing. The request is
    /// counted by ``count()``, once it is certain to be resolved.
    init?(of request: borrowing RecordedRequest, in chain: [ScopeState]) {
        guard chain.contains(where: { $0.chaos != nil }) else { return nil }
        let key = RequestIdentity.key(of: request)
        self.key = key
        members = chain.compactMap { member in member.chaos.map { ($0, $0.identity(of: key)) } }
    }

    /// Counts the request in every seeded scope, so that the next identical one
    /// gets the next identity.
    func count() {
        for (chaos, _) in members {
            chaos.count(key)
        }
    }

    /// The seed lines of the seeded scopes, nearest first, one per line.
    var note: String {
        Self.note(members.map(\.chaos))
    }

    /// The seed lines of `seeded`, without repeats.
    static func note(_ seeded: [ScopeChaos]) -> String {
        var lines: [String] = []
        for chaos in seeded where !lines.contains(chaos.note) {
            lines.append(chaos.note)
        }
        return lines.joined(separator: "\n")
    }

    /// What the nearest covering rules decide for `request`, which `entry` matched;
    /// `nil` when no rule covers it, or when `entry` does not answer it itself
    /// (it forbids requests, was refused, or sends them to the network).
    ///
    /// In each seeded scope, nearest first, the newest `injectFaults` call that
    /// covers the request decides its fault and latency, and the newest
    /// `shuffleResponseOrder` call its hold.
    func plan(for request: RecordedRequest, answeredBy entry: StubEntry, predicates: inout PredicateResults) -> Plan? {
        guard !entry.expectation.forbidsRequests, entry.refusal == nil else { return nil }
        if case .passThrough = entry.source {
            return nil
        }
        var plan: Plan?
        for (chaos, identity) in members {
            guard let rule = chaos.faultRule(for: request, predicates: &predicates) else { continue }
            let decision = rule.decide(for: identity, seed: chaos.seed)
            plan = Plan(fault: decision.fault.map { $0.response(for: request, note: chaos.note) }, delay: decision.latency)
            break
        }
        for (chaos, identity) in members {
            guard let rule = chaos.orderRule(for: request, predicates: &predicates) else { continue }
            let hold = rule.hold(for: identity, seed: chaos.seed)
            plan = Plan(fault: plan?.fault, delay: (plan?.delay ?? .zero) + hold)
            break
        }
        return plan
    }
}
