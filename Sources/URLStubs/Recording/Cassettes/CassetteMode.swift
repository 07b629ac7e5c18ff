import Foundation

/// How a scope uses its cassette.
public enum CassetteMode: String, Sendable, Hashable, CaseIterable {
    /// Answer from the cassette only: the file must exist, and a request it has no
    /// entry for fails with near misses against its entries. Nothing is sent to
    /// the network and nothing is written.
    case replay
    /// Send every request the scope's own stubs do not answer to the network and
    /// write what came back, replacing the file when the scope ends.
    case record
    /// Replay what the cassette has, send the rest to the network, and write the
    /// cassette with the new entries added when the scope ends.
    case recordMissing

    /// The environment variable that overrides the mode of every cassette for a
    /// run: `all` (``record``), `missing` (``recordMissing``) or `none` (``replay``).
    public static let environmentVariable = "URLSTUBS_RECORD"

    /// The mode to use: the environment's override if it sets one, else `self`.
    ///
    /// - Throws: ``CassetteError/invalidEnvironment(variable:value:reason:)`` when the variable holds
    ///   something other than `all`, `missing` or `none`.
    func effective(in environment: [String: String]) throws(CassetteError) -> CassetteMode {
        guard let value = environment[Self.environmentVariable], !value.isEmpty else { return self }
        switch value.lowercased() {
        case "all": return .record
        case "missing": return .recordMissing
        case "none": return .replay
        default:
            throw CassetteError.invalidEnvironment(variable: Self.environmentVariable, value: value, reason: "it must be all, missing or none (or unset)")
        }
    }
}
