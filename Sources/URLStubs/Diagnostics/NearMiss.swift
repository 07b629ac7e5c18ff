/// A stub that came close to matching an unmatched request, with what differed.
public struct NearMiss: Sendable, Hashable {
    /// The stub's pattern in words.
    public let stub: String
    /// Where the stub was registered.
    public let location: StubSourceLocation
    /// The scope the stub belongs to.
    public let scope: StubScope
    /// Every way in which the request differed from the stub's pattern.
    public let mismatches: [RequestMismatch]
}

extension NearMiss: CustomStringConvertible {
    /// The near miss written as its stub, location and differences, one per line.
    ///
    /// A stub that matches the request in everything but the state of its
    /// scenario says so: `- matches, but scenario "cart" is in "empty", not "filled"`.
    public var description: String {
        lines.joined(separator: "\n")
    }

    /// The stub and where it was registered, then each difference; a line may
    /// hold line breaks of its own (a body's text).
    var lines: [String] {
        var lines = ["\(stub) (registered at \(location))"]
        lines.reserveCapacity(mismatches.count + 1)
        if mismatches.allSatisfy({ $0.aspect == .scenario }) {
            lines += mismatches.map { "- matches, but scenario " + ScenarioMessages.state(of: $0) }
        } else {
            lines += mismatches.map { "- \($0)" }
        }
        return lines
    }
}

extension NearMiss {
    /// How far the request was from the stub: a wrong origin or path counts more
    /// than a wrong method, header, query or body. A scenario in another state
    /// counts nothing: the request is what the stub asks for, only at another
    /// time, so a stub that differs in nothing else is the nearest.
    var distance: Int {
        mismatches.reduce(0) { total, mismatch in
            switch mismatch.aspect {
            case .origin, .path, .url: total + 3
            case .method: total + 2
            case .query, .header, .body, .predicate, .pattern: total + 1
            case .scenario: total
            }
        }
    }

    /// Whether the stub shares the request's origin or its path: a stub that
    /// differs in both is not near, it is unrelated.
    var isNear: Bool {
        let aspects = Set(mismatches.map(\.aspect))
        return !(aspects.contains(.origin) && aspects.contains(.path))
    }

    /// The `count` nearest of `candidates`, nearest first; among equals, the one
    /// with fewer differences, then the newest.
    ///
    /// Only near candidates are listed; when there are none, the stubs of the
    /// request's own scope (if it has one) are listed instead, so the report still
    /// shows what the scope offered.
    static func nearest(_ candidates: [(NearMiss, UInt64)], ownScope: StubScope?, count: Int = 3) -> [NearMiss] {
        var pool = candidates.filter { $0.0.isNear }
        if pool.isEmpty, let ownScope {
            pool = candidates.filter { $0.0.scope == ownScope }
        }
        return pool
            .sorted { lhs, rhs in
                if lhs.0.distance != rhs.0.distance {
                    return lhs.0.distance < rhs.0.distance
                }
                if lhs.0.mismatches.count != rhs.0.mismatches.count {
                    return lhs.0.mismatches.count < rhs.0.mismatches.count
                }
                return lhs.1 > rhs.1
            }
            .prefix(count)
            .map(\.0)
    }
}
