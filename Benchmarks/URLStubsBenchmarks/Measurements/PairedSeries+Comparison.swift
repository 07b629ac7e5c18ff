/// Summarizing a series into the report's comparison.
extension PairedSeries {
    /// What the headline figure of the comparison is.
    enum Headline: Sendable {
        /// Wall time per request (lower is better).
        case wallTime
        /// Requests per second (higher is better).
        case throughput
    }

    /// The comparison as the report shows it.
    ///
    /// Side figures are medians over the side's batches (of the batch's total
    /// divided by its requests), except the median and p99 wall time of every
    /// request of the side's batches. Paired figures are medians over pairs. The
    /// kernel's share of CPU time is given per side, pooled over its batches,
    /// without a ratio.
    func comparison(_ name: String, headline: Headline = .wallTime, goals: ComparisonGoals = .none) -> Comparison {
        let pairs = Array(zip(baseline, variant))
        var metrics: [ComparisonMetric] = []
        switch headline {
        case .throughput:
            metrics.append(ComparisonMetric(
                "throughput",
                unit: "req/s",
                baseline: Self.median(baseline.map(\.requestsPerSecond)),
                variant: Self.median(variant.map(\.requestsPerSecond)),
                pairing: .ratio,
                paired: Self.median(pairs.map { $0.wallPerRequest / $1.wallPerRequest }),
                goal: goals.throughput
            ))
        case .wallTime:
            metrics.append(ComparisonMetric(
                "wall time per request",
                unit: "µs",
                baseline: Self.median(baseline.map(\.wallPerRequest)),
                variant: Self.median(variant.map(\.wallPerRequest)),
                pairing: .ratio,
                paired: Self.median(pairs.map { $1.wallPerRequest / $0.wallPerRequest }),
                goal: goals.wall
            ))
        }
        let baselineLatency = SampleSummary(baseline.flatMap(\.requestMicroseconds))
        let variantLatency = SampleSummary(variant.flatMap(\.requestMicroseconds))
        metrics.append(ComparisonMetric("wall time, median request", unit: "µs", baseline: baselineLatency?.median, variant: variantLatency?.median))
        metrics.append(ComparisonMetric("wall time, p99 request", unit: "µs", baseline: baselineLatency?.p99, variant: variantLatency?.p99))
        metrics.append(ComparisonMetric(
            "CPU time per request",
            unit: "µs",
            baseline: Self.median(baseline.map(\.cpuPerRequest)),
            variant: Self.median(variant.map(\.cpuPerRequest)),
            pairing: .ratio,
            paired: Self.median(pairs.map { $1.cpuPerRequest / $0.cpuPerRequest }),
            goal: goals.cpu
        ))
        metrics.append(ComparisonMetric(
            "context switches per request",
            unit: "per request",
            baseline: Self.median(baseline.map(\.contextSwitchesPerRequest)),
            variant: Self.median(variant.map(\.contextSwitchesPerRequest)),
            pairing: .difference,
            paired: Self.median(pairs.map { $1.contextSwitchesPerRequest - $0.contextSwitchesPerRequest }),
            goal: goals.contextSwitches
        ))
        var kernelShare = ComparisonMetric(
            "kernel's share of CPU time (getrusage)",
            unit: "%",
            baseline: BatchSample.kernelShare(of: baseline),
            variant: BatchSample.kernelShare(of: variant)
        )
        kernelShare.ratio = nil // A ratio of two shares says nothing the shares do not.
        metrics.append(kernelShare)
        return Comparison(
            name: name,
            pairs: pairs.count,
            requestsPerBatch: baseline.first?.requests ?? 0,
            metrics: metrics,
            unexpected: (baseline + variant).reduce(0) { $0 + $1.unexpected }
        )
    }

    /// The median of `values` that are finite; `nil` if there are none.
    private static func median(_ values: [Double]) -> Double? {
        SampleSummary(values.filter(\.isFinite))?.median
    }
}
