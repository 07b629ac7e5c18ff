#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What seeded faults and response order say: the seed line that ends every
/// failure message of a seeded scope, injected errors, and why a call cannot be used.
enum FaultMessages {
    /// The seed line: `Faults seeded with 1234 (replay with URLSTUBS_SEED=1234).`
    static func seedNote(_ seed: UInt64, origin: FaultSeed.Origin, faults: Bool, order: Bool) -> String {
        let what = switch (faults, order) {
        case (true, true): "Faults and response order"
        case (false, true): "Response order"
        default: "Faults"
        }
        let replay = "replay with \(FaultSeed.environmentVariable)=\(seed)"
        return switch origin {
        case .explicit: "\(what) seeded with \(seed) (\(replay))."
        case .environment: "\(what) seeded with \(seed) from \(FaultSeed.environmentVariable) (\(replay))."
        case let .inherited(scope): "\(what) seeded with \(seed), the seed of the enclosing \(scope) (\(replay))."
        case .random: "\(what) seeded with \(seed), drawn at random (\(replay))."
        }
    }

    /// `message` followed by the seed lines `note`, unless it ends with them already.
    static func noting(_ message: String, _ note: String?) -> String {
        guard let note, !note.isEmpty, !message.hasSuffix(note) else { return message }
        return message + "\n" + note
    }

    /// The description of the `URLError` an injected fault fails `request` with.
    static func injectedError(_ request: RecordedRequest, code: URLError.Code, note: String) -> String {
        "URLStubs: \(request) failed with an injected fault, \(name(of: code)).\n\(note)"
    }

    /// `code` as Swift spells it, `URLError.timedOut`, or by number when it has no
    /// common name.
    static func name(of code: URLError.Code) -> String {
        let names: [URLError.Code: String] = [
            .timedOut: "timedOut",
            .networkConnectionLost: "networkConnectionLost",
            .notConnectedToInternet: "notConnectedToInternet",
            .cannotConnectToHost: "cannotConnectToHost",
            .cannotFindHost: "cannotFindHost",
            .dnsLookupFailed: "dnsLookupFailed",
            .secureConnectionFailed: "secureConnectionFailed",
            .badServerResponse: "badServerResponse",
            .resourceUnavailable: "resourceUnavailable",
            .cancelled: "cancelled",
            .unknown: "unknown",
        ]
        return names[code].map { "URLError.\($0)" } ?? "URLError code \(code.rawValue)"
    }

    // MARK: - The calls, as messages name them

    /// `The faults for GET https://api.example.com/orders`, or `for every request`.
    static func faultsCall(_ pattern: RequestPattern) -> String {
        "The faults for \(covered(pattern))"
    }

    /// `The response order shuffle for every request`.
    static func orderCall(_ pattern: RequestPattern) -> String {
        "The response order shuffle for \(covered(pattern))"
    }

    /// The requests `pattern` covers: the pattern, or `every request` for `.anyRequest`.
    private static func covered(_ pattern: RequestPattern) -> String {
        let text = pattern.description
        return text == RequestPattern.anyRequest.description ? "every request" : text
    }

    /// A call that cannot be used: `The faults for … cannot be used: reason.`
    static func unusable(_ call: String, reason: String) -> String {
        "\(call) cannot be used: \(reason)."
    }

    /// A call on a scope that has ended, or on no scope at all. "Had no effect",
    /// which reads right after a call in the plural (`The faults for …`) and in the
    /// singular (`The response order shuffle for …`).
    static func ignored(_ call: String, at location: StubSourceLocation, scope: StubScope, hasEnded: Bool) -> String {
        let reason = hasEnded ? "\(scope) has already ended" : "no stub scope is open there"
        return "\(call) at \(location) had no effect: \(reason)."
    }

    /// A call on the global scope.
    static func globalScope(_ call: String, at location: StubSourceLocation) -> String {
        "\(call) at \(location) had no effect: the global scope is shared by every test running at the same time, so its decisions could never be replayed; call it on the test's scope."
    }

    // MARK: - Why a call cannot be used

    static func invalidRate(_ rate: Double) -> String {
        "the rate \(rate) is not a share from 0 to 1"
    }

    static let noFaults = "no faults to choose from: give at least one fault, or a rate of 0"

    static func unusableFault(_ fault: StubFault, problem: String) -> String {
        "the fault \(fault) cannot be injected: \(problem)"
    }

    static func negativeRetryAfter(_ retryAfter: Duration) -> String {
        "a Retry-After of \(retryAfter) is negative"
    }

    static func negativeLatency(_ latency: Duration) -> String {
        "the latency \(latency) is negative"
    }

    static func invalidSigma(_ sigma: Double) -> String {
        "the sigma \(sigma) of a log-normal latency must be a number of 0 or more"
    }

    static func invalidSpacing(_ spacing: Duration) -> String {
        "the spacing \(spacing) must be more than zero and at most a day"
    }

    static func invalidPositions(_ positions: Int) -> String {
        "a shuffle needs 2 to \(ResponseOrderRule.maximumPositions) positions, not \(positions)"
    }

    // MARK: - Seeds

    /// A later call's `seed:` that differs from the first call's.
    static func conflictingSeed(_ seed: UInt64, first: UInt64, at location: StubSourceLocation) -> String {
        "seed \(seed) differs from the seed \(first) given at \(location); a scope has one seed, fixed by its first faults or shuffle call"
    }

    /// A `seed:` that differs from the seed the scope's options gave.
    static func conflictingOptionsSeed(_ seed: UInt64, given: UInt64, at location: StubSourceLocation?) -> String {
        "seed \(seed) differs from the seed \(given) of the scope's options\(location.map { " (scope opened at \($0))" } ?? ""); a scope has one seed, so the options' seed was used"
    }

    /// A `seed:` given after a call without one already seeded the scope.
    static func lateSeed(_ seed: UInt64, scopeSeed: UInt64, at location: StubSourceLocation) -> String {
        "seed \(seed) comes after the call at \(location), which seeded the scope with \(scopeSeed); a scope has one seed, so pass it to the scope's first faults or shuffle call"
    }

    /// A `URLSTUBS_SEED` that is not a seed; the scope was seeded with `used` instead.
    static func invalidEnvironmentSeed(_ text: String, used: UInt64) -> String {
        "\(FaultSeed.environmentVariable)=\(text.debugDescription) is not a seed (a whole number from 0 to \(UInt64.max)), so this scope was seeded with \(used) instead"
    }

    /// The call whose seed was refused, as problems name it.
    static func seedProblem(_ call: String, reason: String) -> String {
        "\(call) could not be seeded as asked: \(reason)."
    }
}
