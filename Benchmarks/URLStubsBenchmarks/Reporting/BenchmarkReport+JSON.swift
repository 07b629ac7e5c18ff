import Foundation

/// The report as JSON, for `--json`.
extension BenchmarkReport {
    /// The report encoded as pretty-printed JSON with sorted keys.
    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        } catch {
            return #"{"error": "the report could not be encoded"}"#
        }
    }
}
