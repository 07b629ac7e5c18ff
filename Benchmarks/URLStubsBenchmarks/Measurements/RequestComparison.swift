#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One paired comparison of request batches: the hand-rolled protocol's session
/// (the baseline) against URLStubs' session (the variant), both run by the same
/// worker, so on the same task, inside the same scope (or outside any), in the
/// same style.
struct RequestComparison: Sendable {
    /// The comparison's name in the report.
    var name: String
    /// The worker whose task runs both sides' batches.
    var worker: ScopedWorker
    /// The requests of the baseline's batches, made in turn, and what each must end with.
    var baseline: (requests: [URLRequest], expectation: RequestTimer.Expectation)
    /// The requests of URLStubs' batches, made in turn, and what each must end with.
    var variant: (requests: [URLRequest], expectation: RequestTimer.Expectation)
    /// How both sides make their requests.
    var style: RequestTimer.Style = .async
    /// The baseline's session: the hand-rolled dictionary protocol's by default.
    var baselineSession: URLSession = BenchmarkFixtures.baselineSession
    /// The variant's session: URLStubs' by default.
    var variantSession: URLSession = BenchmarkFixtures.stubbedSession
    /// Requests per batch.
    var requestsPerBatch: Int
    /// The goals the comparison's paired figures are held to.
    var goals: ComparisonGoals = .none

    /// Runs one batch of the baseline on the worker.
    func baselineBatch() async -> BatchSample {
        await batch(baseline.requests, through: baselineSession, expecting: baseline.expectation)
    }

    /// Runs one batch of the variant (URLStubs, unless the comparison is a reference) on the worker.
    func variantBatch() async -> BatchSample {
        await batch(variant.requests, through: variantSession, expecting: variant.expectation)
    }

    /// Runs one batch of `request` through `session` on the worker.
    private func batch(_ requests: [URLRequest], through session: URLSession, expecting expectation: RequestTimer.Expectation) async -> BatchSample {
        let count = requestsPerBatch
        let style = style
        return await worker.run {
            await RequestTimer.batch(count, requests, through: session, style: style, expecting: expectation)
        }
    }

    /// Measures `pairs` pairs of every comparison, round-robin (one pair of each per
    /// round), after `warmUpPairs` discarded pairs of each; returns one series per
    /// comparison, in order.
    static func measure(_ comparisons: [RequestComparison], pairs: Int, warmUpPairs: Int, label: String) async -> [PairedSeries] {
        for round in 0..<warmUpPairs {
            Progress.log("\(label): warm-up \(round + 1)/\(warmUpPairs)")
            for comparison in comparisons {
                _ = await PairedSeries.pair(number: round, baseline: comparison.baselineBatch, variant: comparison.variantBatch)
            }
        }
        var series = Array(repeating: PairedSeries(), count: comparisons.count)
        for round in 0..<pairs {
            Progress.log("\(label): pair \(round + 1)/\(pairs)")
            for (index, comparison) in comparisons.enumerated() {
                await series[index].measurePair(baseline: comparison.baselineBatch, variant: comparison.variantBatch)
            }
        }
        return series
    }
}
