#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Compares requests per second of URLStubs and the hand-rolled protocol: one task
/// making its requests back to back, and 64 tasks, each in its own scope, making
/// theirs at once through one shared session; counts responses delivered to the
/// wrong scope.
///
/// Both comparisons alternate pairs of batches (see ``PairedSeries``), the same
/// requests per batch on both sides, run by the same tasks: the baseline's 64
/// tasks are URLStubs' 64 workers, inside their scopes, using the baseline's
/// session. Every scope stubs the same URL with a body of its own and every
/// response is checked. The sequential comparison runs first, with only its own
/// scope open (as the interception section's 1-stub row); the 64 scopes are
/// opened after it.
struct ThroughputBenchmark {
    /// Concurrent scopes (and the baseline's concurrent tasks).
    static let concurrentScopes = 64

    /// Whether this is the smoke run.
    let quick: Bool

    /// Measured pairs of the sequential comparison.
    var sequentialPairs: Int { quick ? 2 : 48 }
    /// Requests per batch of the sequential comparison.
    var sequentialBatch: Int { quick ? 64 : 512 }
    /// Measured pairs of the concurrent comparison.
    var concurrentPairs: Int { quick ? 2 : 32 }
    /// Requests per batch of the concurrent comparison, split among the scopes.
    var concurrentBatch: Int { quick ? 128 : 1_024 }
    /// Discarded pairs per comparison before the measured ones.
    var warmUpPairs: Int { quick ? 1 : 2 }

    /// Runs the measurement and returns its section of the report.
    func run() async -> ReportSection {
        let shared = BenchmarkFixtures.request(BenchmarkFixtures.sharedURL)
        let sequentialBody = BenchmarkFixtures.body(tag: "throughput sequential")
        let sequential = await ScopedWorker.scoped { scope in
            await scope.stub(.get(BenchmarkFixtures.sharedURL.absoluteString), with: .data(sequentialBody))
        }
        let single = RequestComparison(
            name: "sequential: 1 task, back to back",
            worker: sequential,
            baseline: ([shared], .body(BenchmarkFixtures.baselineBody)),
            variant: ([shared], .body(sequentialBody)),
            requestsPerBatch: sequentialBatch
        )
        let sequentialSeries = await RequestComparison.measure([single], pairs: sequentialPairs, warmUpPairs: warmUpPairs, label: "throughput, sequential")[0]
        await sequential.finish()

        Progress.log("throughput: opening \(Self.concurrentScopes) scopes")
        var workers: [ScopedWorker] = []
        for index in 0..<Self.concurrentScopes {
            let own = Self.scopeBody(index)
            workers.append(await ScopedWorker.scoped { scope in
                await scope.stub(.get(BenchmarkFixtures.sharedURL.absoluteString), with: .data(own))
            })
        }
        let burst = ConcurrentBurst(workers: workers, requestsEach: concurrentBatch / Self.concurrentScopes, request: shared)
        var concurrentSeries = PairedSeries()
        var tally = ConcurrentBurst.Tally()
        /// Runs one burst on URLStubs' side (`stubbed`) or the baseline's, and adds
        /// its checks to the tally.
        func concurrent(stubbed: Bool) async -> BatchSample {
            let (sample, checks) = await burst.run(stubbed: stubbed)
            tally.misdelivered += checks.misdelivered
            tally.failed += checks.failed
            return sample
        }
        for round in 0..<warmUpPairs {
            Progress.log("throughput, 64 scopes: warm-up \(round + 1)/\(warmUpPairs)")
            _ = await PairedSeries.pair(number: round, baseline: { await concurrent(stubbed: false) }, variant: { await concurrent(stubbed: true) })
        }
        for round in 0..<concurrentPairs {
            Progress.log("throughput, 64 scopes: pair \(round + 1)/\(concurrentPairs)")
            await concurrentSeries.measurePair(baseline: { await concurrent(stubbed: false) }, variant: { await concurrent(stubbed: true) })
        }
        for worker in workers {
            await worker.finish()
        }
        let comparisons = [
            sequentialSeries.comparison(single.name, headline: .throughput, goals: ComparisonGoals(throughput: .ratioAtLeast(0.95))),
            concurrentSeries.comparison("\(Self.concurrentScopes) scopes at once vs \(Self.concurrentScopes) hand-rolled tasks", headline: .throughput, goals: ComparisonGoals(throughput: .ratioAtLeast(0.95))),
        ]
        tally.failed += comparisons[0].unexpected
        return section(comparisons, tally: tally)
    }

    /// The body scope `index` of the concurrent comparison answers; every scope's
    /// body starts with ``ConcurrentBurst/scopeBodyPrefix``.
    static func scopeBody(_ index: Int) -> Data {
        BenchmarkFixtures.body(tag: ConcurrentBurst.scopeBodyPrefix + "\(index)")
    }

    /// Builds the report section from the comparisons and the checks.
    private func section(_ comparisons: [Comparison], tally: ConcurrentBurst.Tally) -> ReportSection {
        var rows = [
            ReportRow.single("responses delivered to the wrong scope", unit: "count", Double(tally.misdelivered), goal: .valueAtMost(0, "= 0")),
            ReportRow.single("failed requests and wrong bodies", unit: "count", Double(tally.failed), goal: .valueAtMost(0, "= 0")),
        ]
        let throughput = comparisons.map { $0.metrics.first { $0.unit == "req/s" } }
        if let sequential = throughput[0], let concurrent = throughput[1] {
            if let mine = concurrent.variant, let alone = sequential.variant, alone > 0 {
                rows.append(.single("URLStubs 64 scopes ÷ 1 task (unpaired)", unit: "x", mine / alone))
            }
            if let theirs = concurrent.baseline, let alone = sequential.baseline, alone > 0 {
                rows.append(.single("hand-rolled 64 tasks ÷ 1 task (unpaired)", unit: "x", theirs / alone))
            }
        }
        let share = concurrentBatch / Self.concurrentScopes
        var notes = [
            "Method: a batch is \(Format.number(Double(sequentialBatch), digits: 0)) requests (sequential) or \(Format.number(Double(concurrentBatch), digits: 0)) (64 scopes), the same on both sides; batches alternate B V V B ... after \(warmUpPairs) discarded pair(s). Throughput = requests / the batch's wall time; paired = the median over pairs of hand-rolled batch time / URLStubs batch time (above 1 means URLStubs is faster). CPU time and context switches are the whole process's over the batch, per request, as in the interception section.",
            "Sequential: one task in a scope with one stub makes the batch's requests back to back; the baseline's batches run on the same task through the hand-rolled protocol's session. No other scope of this section is open yet.",
            "64 scopes (opened after the sequential comparison): 64 long-lived tasks, each inside its own scope, which stubs the shared URL with a body of its own; a batch gives each task \(share) requests, released together once all are waiting, and lasts from the release to the last response. The hand-rolled batches run on the same 64 tasks through the baseline session. A request's wall time is timed within its task, so it includes waiting behind the other 63 tasks.",
            "Every response is checked after its batch's readings: a body of another scope counts as delivered to the wrong scope; an error or any other body as failed. The unpaired rows divide the 64-task median throughput by the 1-task one, per side.",
        ]
        if tally.misdelivered != 0 || tally.failed != 0 {
            notes.append("UNEXPECTED: \(tally.misdelivered) responses delivered to the wrong scope, \(tally.failed) failed requests or wrong bodies.")
        }
        return ReportSection(
            name: MeasurementKind.throughput.rawValue,
            title: "Throughput: one task, and 64 scopes at once through one shared session",
            baseline: "the hand-rolled protocol making the same requests from the same tasks, paired batch by batch",
            comparisons: comparisons,
            rows: rows,
            notes: notes
        )
    }
}
