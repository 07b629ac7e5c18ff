import Foundation

/// Where the seed of a scope's faults and response order comes from, and the
/// `URLSTUBS_SEED` environment variable that overrides it.
enum FaultSeed {
    /// The environment variable that seeds every scope of a run, to replay one.
    static let environmentVariable = "URLSTUBS_SEED"

    /// Where a scope's seed came from.
    enum Origin: Equatable {
        /// The `seed:` argument of the scope's first faults or shuffle call.
        case explicit
        /// `URLSTUBS_SEED`, which overrides any `seed:` argument.
        case environment
        /// The seed of the enclosing scope, given neither a seed nor `URLSTUBS_SEED`.
        case inherited(StubScope)
        /// Drawn at random, given no seed anywhere.
        case random
    }

    /// What the value of `URLSTUBS_SEED` says.
    enum Setting: Equatable {
        /// Not set, or set to nothing but white space: seeds come from the calls.
        case unset
        /// Seed every scope with this.
        case seed(UInt64)
        /// Set to something that is not a seed (the text as it was set).
        case invalid(String)
    }

    /// Reads a value of `URLSTUBS_SEED`: a whole number from 0 to 2⁶⁴ − 1 in
    /// decimal, white space around it ignored; anything else is ``Setting/invalid(_:)``,
    /// never a crash.
    static func parse(_ text: String?) -> Setting {
        guard let text else { return .unset }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .unset }
        guard trimmed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let seed = UInt64(trimmed) else {
            return .invalid(text)
        }
        return .seed(seed)
    }

    /// The setting of this process's `URLSTUBS_SEED`, read now.
    static var environment: Setting {
        parse(ProcessInfo.processInfo.environment[environmentVariable])
    }

    /// A seed for a scope given none.
    static func random() -> UInt64 {
        UInt64.random(in: .min ... .max)
    }
}
