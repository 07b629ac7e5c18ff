/// What the `.predicate` conditions met while resolving one request returned, so
/// that the registry can match under its lock without running them there.
///
/// A predicate is code of the user's: it may be slow, read the scope, register a
/// stub, or wait for something that needs the registry's lock. So the registry
/// matches a request in rounds. Under the lock, a pattern's predicate whose result
/// is not known yet is listed as ``needed`` and the pattern does not match; if any
/// was needed, the round decides nothing and changes nothing. After the lock is
/// released the needed predicates run (``runNeeded(on:)``), and the next round
/// matches again from the start, with their results. A request that meets no
/// predicate is resolved in one round, with nothing allocated here.
///
/// Outside the registry (``running``), predicates simply run as they are met.
struct PredicateResults {
    /// Whether predicates run as they are met, instead of being looked up.
    private let runsPredicates: Bool
    /// The results so far, by predicate and what its pattern captured (one
    /// predicate inside an alternative may meet the request with the captures of
    /// either); the predicate is kept so that its identity cannot be taken by
    /// another one while the request resolves.
    private var known: [Key: (predicate: RequestPattern.Predicate, holds: Bool)] = [:]

    /// A predicate met with what its pattern captured.
    private struct Key: Hashable {
        let predicate: ObjectIdentifier
        let captures: PathCaptures
    }
    /// The predicates met in this round whose results are not known yet, in the
    /// order met (one met twice is listed twice, and run once), each with what its
    /// pattern's templates captured, which it is run with.
    private var needed: [(predicate: RequestPattern.Predicate, captures: PathCaptures)] = []

    private init(runsPredicates: Bool) {
        self.runsPredicates = runsPredicates
    }

    /// Results for matching under the registry's lock: every predicate is looked up.
    static var lookedUp: PredicateResults {
        PredicateResults(runsPredicates: false)
    }

    /// Results for matching outside the registry's lock: every predicate runs when met.
    static var running: PredicateResults {
        PredicateResults(runsPredicates: true)
    }

    /// Whether every predicate met in this round had a known result.
    var isComplete: Bool {
        needed.isEmpty
    }

    /// Whether `predicate` holds for `request`, or `nil` (listing it as needed)
    /// when that is not known yet. `request` carries what the predicate's pattern
    /// captured so far (its ``RecordedRequest/pathParameters``), and the predicate
    /// is run with it, now or later.
    mutating func result(of predicate: RequestPattern.Predicate, for request: RecordedRequest) -> Bool? {
        if runsPredicates {
            return predicate.test(request)
        }
        if let known = known[Key(predicate: ObjectIdentifier(predicate), captures: request.captures)] {
            return known.holds
        }
        needed.append((predicate, request.captures))
        return nil
    }

    /// Runs the predicates the last round needed on `request`, each with what its
    /// pattern captured, for the next round. Call it with the registry's lock released.
    mutating func runNeeded(on request: RecordedRequest) {
        known.reserveCapacity(known.count + needed.count)
        for (predicate, captures) in needed {
            let key = Key(predicate: ObjectIdentifier(predicate), captures: captures)
            if known[key] == nil {
                known[key] = (predicate, predicate.test(request.capturing(captures)))
            }
        }
        needed = []
    }
}
