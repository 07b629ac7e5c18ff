/// An optional feature of a scope, attached to the registry's core through the
/// points the core has: faults and response order (`Faults/`), recording and drift
/// checks (`Recording/`), scenarios (`Scenarios/`), servers (`Serving/`), and the
/// seed of the scope's options (`Faults/ScopeSeed.swift`).
///
/// The core (``StubRegistry``, ``ScopeState``) names no feature. A scope keeps the
/// features it uses in ``ScopeState/features``, one instance of each kind. The
/// registry calls each kind listed in ``StubRegistry/featureKinds`` (those with a
/// part in requests):
/// - when a scope opens (``opened(_:)``);
/// - when a request arrives, for the request's part (``RequestPart``): what it
///   changes when a stub is chosen, what it does when none is, and after answering;
/// - for the note every failure message of the scope ends with (``note(for:)``).
///
/// Every feature a scope has is called when the scope ends
/// (``ended(exchanges:location:)``). A stub's part of a feature (a scenario's
/// condition and move) is its ``StubRule``, made at registration from a
/// ``StubRuleRequest``.
///
/// A scope none of whose chain uses a feature skips every request hook after one
/// check of empty lists, and allocates nothing for them.
///
/// Instances are touched only in the registry's isolation, except
/// ``ended(exchanges:location:)``, called once, after the scope was removed.
protocol ScopeFeature: AnyObject {
    /// Attaches the feature to a scope as it opens, when the run asks for it for
    /// every scope (the environment turns drift checks on, say).
    static func opened(_ scopeState: ScopeState)

    /// The feature's part in resolving `request`, made in `chain` (the request's
    /// scope, its open enclosing scopes and the global scope, nearest first); `nil`
    /// when no scope of the chain has the feature. Changes nothing.
    static func part(for request: borrowing RecordedRequest, in chain: ScopeChain) -> (any RequestPart)?

    /// The line every failure message of a scope with `chain` ends with, or `nil`.
    static func note(for chain: ScopeChain) -> String?

    /// Stops what must stop the moment its scope has ended and failed its requests
    /// in flight, before its waiters are woken (a server stops accepting
    /// connections). Called outside the lock.
    func closed()

    /// Finishes the feature's work once its scope has ended and failed its requests
    /// in flight, given the scope's exchanges; returns the problems it found. Called
    /// outside the lock.
    func ended(exchanges: [RecordedExchange], location: StubSourceLocation?) -> [StubProblem]
}

extension ScopeFeature {
    static func opened(_ scopeState: ScopeState) {}

    /// No part in requests: what a feature not listed in
    /// ``StubRegistry/featureKinds`` has (scenarios, servers, the options' seed).
    static func part(for request: borrowing RecordedRequest, in chain: ScopeChain) -> (any RequestPart)? {
        nil
    }

    func closed() {}

    static func note(for chain: ScopeChain) -> String? {
        nil
    }

    func ended(exchanges: [RecordedExchange], location: StubSourceLocation?) -> [StubProblem] {
        []
    }
}

/// A feature's part in resolving one request, built in the critical section that
/// resolves it. Every hook but ``arrived()`` and the after-lock work changes nothing.
protocol RequestPart {
    /// The line every failure message of the request ends with, or `nil`.
    var note: String? { get }

    /// Choosing a stub: what the feature changes in the answer of `entry`, which
    /// matched `request`; `nil` for nothing.
    func change(forAnswerOf entry: StubEntry, to request: RecordedRequest, predicates: inout PredicateResults) -> AnswerChange?

    /// Unmatched: whether the request goes to the network instead of failing, given
    /// the used-up stub that would have answered it; `nil` when the feature does
    /// not decide.
    func passesThrough(usedUp: StubEntry?) -> Bool?

    /// Unmatched: a hint the unmatched request's message ends with, or `nil`.
    var unmatchedHint: String? { get }

    /// Arrival: the request is certain to be resolved (counted, say). Called in the
    /// critical section, once.
    func arrived()

    /// Answered: the work to do once the lock is released for `exchange`, which
    /// `entry` answered from the scope `home`; `nil` for none.
    func answered(_ exchange: LoggedExchange, by entry: StubEntry, home: ScopeState) -> AfterLock?
}

extension RequestPart {
    var note: String? {
        nil
    }

    func change(forAnswerOf entry: StubEntry, to request: RecordedRequest, predicates: inout PredicateResults) -> AnswerChange? {
        nil
    }

    func passesThrough(usedUp: StubEntry?) -> Bool? {
        nil
    }

    var unmatchedHint: String? {
        nil
    }

    func arrived() {}

    func answered(_ exchange: LoggedExchange, by entry: StubEntry, home: ScopeState) -> AfterLock? {
        nil
    }
}

/// Work a feature does for a request once the registry's lock is released.
typealias AfterLock = @Sendable (StubRegistry) -> Void

/// What a feature changes in the answer of the stub that matched.
struct AnswerChange {
    /// The response the request fails with instead of its stub's (an injected fault).
    var replacement: StubResponse?
    /// The delay added to the answer, whoever gives it.
    var delay: Duration
}

/// The parts of every feature in one request, in the order of
/// ``StubRegistry/featureKinds``; empty, with nothing allocated, when the request's
/// chain uses no feature.
struct RequestParts {
    private var parts: [any RequestPart] = []

    init(for request: borrowing RecordedRequest, in chain: ScopeChain) {
        guard chain.contains(where: { $0.takesPartInRequests }) else { return }
        for kind in StubRegistry.featureKinds {
            if let part = kind.type.part(for: request, in: chain) {
                parts.append(part)
            }
        }
    }

    /// Whether no feature takes part in the request.
    var isEmpty: Bool {
        parts.isEmpty
    }

    /// The lines the request's failure messages end with, or `nil`.
    var note: String? {
        guard !parts.isEmpty else { return nil }
        let notes = parts.compactMap(\.note)
        return notes.isEmpty ? nil : notes.joined(separator: "\n")
    }

    /// The first change a part makes in the answer of `entry`.
    func change(forAnswerOf entry: StubEntry, to request: RecordedRequest, predicates: inout PredicateResults) -> AnswerChange? {
        for part in parts {
            if let change = part.change(forAnswerOf: entry, to: request, predicates: &predicates) {
                return change
            }
        }
        return nil
    }

    /// Whether the first part that decides sends the unmatched request to the network.
    func passesThrough(usedUp: StubEntry?) -> Bool {
        for part in parts {
            if let decision = part.passesThrough(usedUp: usedUp) {
                return decision
            }
        }
        return false
    }

    /// Appends the hints the unmatched request's message ends with to `message`,
    /// one per line, each after a line break; nothing for none (most scopes have no
    /// part, and the message is then left as it is).
    func appendUnmatchedHints(to message: inout String) {
        for part in parts {
            if let hint = part.unmatchedHint {
                message += "\n"
                message += hint
            }
        }
    }

    func arrived() {
        for part in parts {
            part.arrived()
        }
    }

    /// The work to do once the lock is released for `exchange`, which `entry` answered.
    func answered(_ exchange: LoggedExchange, by entry: StubEntry, home: ScopeState) -> [AfterLock] {
        guard !parts.isEmpty else { return [] }
        return parts.compactMap { $0.answered(exchange, by: entry, home: home) }
    }
}

extension ScopeState {
    /// The scope's instance of the feature `kind`, or `nil` when it does not use it.
    func feature<Feature: ScopeFeature>(_ kind: Feature.Type) -> Feature? {
        for feature in features {
            if let found = feature as? Feature {
                return found
            }
        }
        return nil
    }

    /// The scope's instance of the feature `kind`, attached now if it had none.
    func attach<Feature: ScopeFeature>(_ kind: Feature.Type, _ make: () -> Feature) -> Feature {
        if let existing = feature(kind) {
            return existing
        }
        let created = make()
        add(created)
        return created
    }
}

/// A kind of optional feature: a value naming its ``ScopeFeature`` type (a list of
/// metatypes would not be `Sendable` on every SDK the package supports).
enum FeatureKind: Sendable {
    case faults
    case recording

    /// The feature's type, whose static hooks the registry calls.
    var type: any ScopeFeature.Type {
        switch self {
        case .faults: ScopeFaults.self
        case .recording: ScopeRecording.self
        }
    }
}

extension StubRegistry {
    /// Every optional feature a scope may use, in the order their parts are asked.
    static let featureKinds: [FeatureKind] = [.faults, .recording]

    /// The notes every failure message of `scopeState` ends with (the seeds of its
    /// faults and those of its open enclosing scopes, say), or `nil`.
    func note(of scopeState: ScopeState) -> String? {
        guard chainTakesPartInRequests(from: scopeState) else { return nil }
        let chain = chain(from: scopeState)
        let notes = Self.featureKinds.compactMap { $0.type.note(for: chain) }
        return notes.isEmpty ? nil : notes.joined(separator: "\n")
    }
}
