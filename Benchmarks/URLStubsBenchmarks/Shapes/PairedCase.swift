/// One paired comparison given as its two batches: the hand-rolled protocol's (the
/// baseline) and URLStubs' (the variant), each a closure that runs one batch and
/// returns what it measured.
struct PairedCase: Sendable {
    /// The comparison's name in the report.
    var name: String
    /// The goals its paired figures are held to.
    var goals: ComparisonGoals
    /// Runs one baseline batch.
    var baseline: @Sendable () async -> BatchSample
    /// Runs one variant batch.
    var variant: @Sendable () async -> BatchSample

    /// The case that runs `comparison`'s batches, after `prepare` (outside the
    /// timing) before each baseline batch.
    init(_ comparison: RequestComparison, prepare: @escaping @Sendable () -> Void = {}) {
        name = comparison.name
        goals = comparison.goals
        baseline = {
            prepare()
            return await comparison.baselineBatch()
        }
        variant = comparison.variantBatch
    }

    /// A case from its parts.
    init(name: String, goals: ComparisonGoals, baseline: @escaping @Sendable () async -> BatchSample, variant: @escaping @Sendable () async -> BatchSample) {
        self.name = name
        self.goals = goals
        self.baseline = baseline
        self.variant = variant
    }

    /// Measures `pairs` pairs of every case, round-robin (one pair of each per
    /// round), after `warmUpPairs` discarded pairs of each; returns each case's
    /// comparison, in order.
    static func measure(_ cases: [PairedCase], pairs: Int, warmUpPairs: Int, label: String) async -> [Comparison] {
        for round in 0..<warmUpPairs {
            Progress.log("\(label): warm-up \(round + 1)/\(warmUpPairs)")
            for item in cases {
                _ = await PairedSeries.pair(number: round, baseline: item.baseline, variant: item.variant)
            }
        }
        var series = Array(repeating: PairedSeries(), count: cases.count)
        for round in 0..<pairs {
            Progress.log("\(label): pair \(round + 1)/\(pairs)")
            for (index, item) in cases.enumerated() {
                await series[index].measurePair(baseline: item.baseline, variant: item.variant)
            }
        }
        return zip(cases, series).map { item, series in series.comparison(item.name, goals: item.goals) }
    }
}
