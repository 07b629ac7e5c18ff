#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Patterns made of other patterns: either of two, everything but one, and one
/// except another.
///
/// ```swift
/// .get("https://api.example.com/users").or(.get("https://api.example.com/members"))
/// .not(.host("api.example.com"))
/// .get("https://api.example.com/users/{id}").excluding(.get("https://api.example.com/users/me"))
/// ```
///
/// A request that matches none of them is reported with what differed in each
/// part: every alternative of an `or` (`path: expected /users or /members, got
/// /people`), or the pattern it should not have matched.
extension RequestPattern {
    /// Matches the requests that match this pattern or `other` (or both).
    ///
    /// Chains read in order and stay flat: `a.or(b).or(c)` is one choice of three.
    /// The path parameters are those of the first alternative that matches. A
    /// malformed alternative makes the whole pattern malformed.
    public func or(_ other: RequestPattern) -> RequestPattern {
        var combined = RequestPattern.anyRequest.adding(.alternatives(alternatives + other.alternatives))
        combined.problem = problem ?? other.problem
        return combined
    }

    /// Matches every request that `pattern` does not match, whatever its method
    /// and URL.
    ///
    /// A malformed `pattern` makes this pattern malformed too, rather than matching
    /// everything.
    public static func not(_ pattern: RequestPattern) -> RequestPattern {
        RequestPattern.anyRequest.excluding(pattern)
    }

    /// Also requires the request not to match `other`: `.get("/users/{id}")
    /// .excluding(.get("/users/me"))` matches every user but `me`.
    ///
    /// A malformed `other` makes this pattern malformed too.
    public func excluding(_ other: RequestPattern) -> RequestPattern {
        let combined = adding(.not(other))
        return other.problem.map { combined.failing($0) } ?? combined
    }

    /// The choices this pattern offers: its alternatives when it is only a choice,
    /// else itself.
    private var alternatives: [RequestPattern] {
        if method == nil, urlSource == nil, problem == nil, conditions.count == 1,
           case let .alternatives(patterns) = conditions[0] {
            return patterns
        }
        return [self]
    }
}
