/// The batches of one comparison, measured in adjacent pairs of a baseline batch
/// and a variant batch, the order alternating: B V, V B, B V, V B, ...
///
/// Each pair is one observation of the variant relative to the baseline under the
/// same conditions (the same task, the same moment of the run); the comparison's
/// figures are medians over pairs, so drift between pairs (another process, a
/// frequency change) cancels and an outlying pair does not move them.
struct PairedSeries: Sendable {
    /// The baseline batch of each pair, in order.
    private(set) var baseline: [BatchSample] = []
    /// The variant batch of each pair, in order.
    private(set) var variant: [BatchSample] = []

    /// How many pairs were measured.
    var pairs: Int { baseline.count }

    /// Measures one pair and keeps it: baseline then variant for an even pair
    /// number, variant then baseline for an odd one.
    mutating func measurePair(
        baseline measureBaseline: () async -> BatchSample,
        variant measureVariant: () async -> BatchSample
    ) async {
        let pair = await Self.pair(number: pairs, baseline: measureBaseline, variant: measureVariant)
        baseline.append(pair.baseline)
        variant.append(pair.variant)
    }

    /// Measures one pair in the order pair number `number` takes and returns it,
    /// without keeping it (a warm-up pair).
    static func pair(
        number: Int,
        baseline measureBaseline: () async -> BatchSample,
        variant measureVariant: () async -> BatchSample
    ) async -> (baseline: BatchSample, variant: BatchSample) {
        if number.isMultiple(of: 2) {
            let first = await measureBaseline()
            return (first, await measureVariant())
        }
        let first = await measureVariant()
        return (await measureBaseline(), first)
    }
}
