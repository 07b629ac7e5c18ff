/// The seeded scopes a request was made in, nearest first, each with the
/// request's identity there: the faults feature's part in resolving the request,
/// built in the registry's critical section.
struct RequestFaults: RequestPart {
    private let members: [(faults: ScopeFaults, identity: RequestIdentity)]
    /// The request's ``RequestIdentity/key(of:)``.
    private let key: String

    /// The identities `request` gets in every seeded scope of `chain`; `nil` when
    /// none is seeded. The request is counted by ``arrived()``, once it is certain
    /// to be resolved.
    init?(of request: borrowing RecordedRequest, in chain: ScopeChain) {
        let seeded = chain.compactMap { $0.feature(ScopeFaults.self) }
        guard !seeded.isEmpty else { return nil }
        let key = RequestIdentity.key(of: request)
        self.key = key
        members = seeded.map { ($0, $0.identity(of: key)) }
    }

    /// Counts the request in every seeded scope, so that the next identical one
    /// gets the next identity.
    func arrived() {
        for (faults, _) in members {
            faults.count(key)
        }
    }

    /// The seed lines of the seeded scopes, nearest first, one per line.
    var note: String? {
        Self.note(members.map(\.faults))
    }

    /// The seed lines of `seeded`, without repeats.
    static func note(_ seeded: [ScopeFaults]) -> String {
        var lines: [String] = []
        for faults in seeded where !lines.contains(faults.note) {
            lines.append(faults.note)
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
    func change(forAnswerOf entry: StubEntry, to request: RecordedRequest, predicates: inout PredicateResults) -> AnswerChange? {
        guard !entry.expectation.forbidsRequests, entry.refusal == nil else { return nil }
        if case .passThrough = entry.source {
            return nil
        }
        var change: AnswerChange?
        for (faults, identity) in members {
            guard let rule = faults.faultRule(for: request, predicates: &predicates) else { continue }
            let decision = rule.decide(for: identity, seed: faults.seed)
            change = AnswerChange(replacement: decision.fault.map { $0.response(for: request, note: faults.note) }, delay: decision.latency)
            break
        }
        for (faults, identity) in members {
            guard let rule = faults.orderRule(for: request, predicates: &predicates) else { continue }
            let hold = rule.hold(for: identity, seed: faults.seed)
            change = AnswerChange(replacement: change?.replacement, delay: (change?.delay ?? .zero) + hold)
            break
        }
        return change
    }
}
