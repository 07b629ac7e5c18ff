/// The median, tail percentiles and count of a set of samples.
///
/// For "lower is better" units (time) the tail is the high end: p90 is the value 90%
/// of samples do not exceed. For "higher is better" units (requests per second) the
/// tail is the low end: p90 is the value 90% of samples reach or beat.
struct SampleSummary: Codable, Sendable {
    /// The middle sample.
    var median: Double
    /// The sample 90% of the samples are no worse than.
    var p90: Double
    /// The sample 99% of the samples are no worse than.
    var p99: Double
    /// How many samples there were.
    var count: Int

    /// Summarizes `samples`; returns `nil` when there are none.
    init?(_ samples: [Double], higherIsBetter: Bool = false) {
        guard !samples.isEmpty else { return nil }
        let sorted = higherIsBetter ? samples.sorted(by: >) : samples.sorted()
        median = Self.percentile(0.5, of: sorted)
        p90 = Self.percentile(0.9, of: sorted)
        p99 = Self.percentile(0.99, of: sorted)
        count = samples.count
    }

    /// The nearest-rank percentile `fraction` of `sorted` (ordered from best to worst).
    private static func percentile(_ fraction: Double, of sorted: [Double]) -> Double {
        if fraction == 0.5, sorted.count.isMultiple(of: 2) {
            return (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
