#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Compares one request at a time through URLSession answered by URLStubs with the
/// same request answered by a hand-rolled static-dictionary protocol, through a
/// session configured the same way.
///
/// Each comparison runs both sides on one worker (the same task, in the same
/// scope), in pairs of batches B V, V B, B V, ... (see ``PairedSeries``). The
/// comparisons without other scopes run round-robin, a pair each per round; the
/// comparison with 1,000 other live scopes runs afterwards, while those scopes are
/// parked open, so that they are opened once.
struct InterceptionBenchmark {
    /// Whether this is the smoke run.
    let quick: Bool

    /// Measured pairs per comparison.
    var pairs: Int { quick ? 2 : 100 }
    /// Discarded pairs per comparison before the measured ones.
    var warmUpPairs: Int { quick ? 1 : 2 }
    /// Requests per batch.
    var requestsPerBatch: Int { quick ? 10 : 100 }
    /// Other scopes parked open during the crowded comparison.
    var otherScopes: Int { 1_000 }
    /// Stubs in the scope of the many-stubs comparison.
    var stubsInScope: Int { 1_000 }

    /// Runs the measurement and returns its section of the report.
    func run() async -> ReportSection {
        let single = BenchmarkFixtures.request(BenchmarkFixtures.singleURL)
        let item = BenchmarkFixtures.request(BenchmarkFixtures.itemURL(stubsInScope / 2))
        let global = BenchmarkFixtures.request(BenchmarkFixtures.globalURL)
        let oneBody = BenchmarkFixtures.body(tag: "one stub")
        let crowdedBody = BenchmarkFixtures.body(tag: "crowded")
        let globalBody = BenchmarkFixtures.body(tag: "global")
        let itemBody = BenchmarkFixtures.body(tag: "item \(stubsInScope / 2)")
        let baselineBody = RequestTimer.Expectation.body(BenchmarkFixtures.baselineBody)
        let stubCount = stubsInScope

        Progress.log("interception: registering stubs")
        let outside = await ScopedWorker.unscoped()
        let one = await ScopedWorker.scoped { scope in
            await scope.stub(.get(BenchmarkFixtures.singleURL.absoluteString), with: .data(oneBody))
        }
        let many = await ScopedWorker.scoped { scope in
            for index in 0..<stubCount {
                let body = BenchmarkFixtures.body(tag: "item \(index)")
                await scope.stub(.get(BenchmarkFixtures.itemURL(index).absoluteString), with: .data(body))
            }
        }
        let crowded = await ScopedWorker.scoped { scope in
            await scope.stub(.get(BenchmarkFixtures.singleURL.absoluteString), with: .data(crowdedBody))
        }
        let globalStub = await StubScope.global.stub(.get(BenchmarkFixtures.globalURL.absoluteString), with: .data(globalBody))

        let batch = requestsPerBatch
        let quiet = [
            RequestComparison(name: "1 stub in the scope", worker: one, baseline: ([single], baselineBody), variant: ([single], .body(oneBody)), requestsPerBatch: batch, goals: .parity),
            RequestComparison(name: "1,000 stubs in the scope", worker: many, baseline: ([item], baselineBody), variant: ([item], .body(itemBody)), requestsPerBatch: batch, goals: .parity),
            RequestComparison(name: "1 stub, completion-handler dataTask", worker: one, baseline: ([single], baselineBody), variant: ([single], .body(oneBody)), style: .completionHandler, requestsPerBatch: batch),
            RequestComparison(name: "served by the global scope, outside any scope", worker: outside, baseline: ([global], baselineBody), variant: ([global], .body(globalBody)), requestsPerBatch: batch),
        ]
        let crowdedComparison = RequestComparison(name: "1 stub, 1,000 other live scopes", worker: crowded, baseline: ([single], baselineBody), variant: ([single], .body(crowdedBody)), requestsPerBatch: batch, goals: .parity)

        let quietSeries = await RequestComparison.measure(quiet, pairs: pairs, warmUpPairs: warmUpPairs, label: "interception")
        Progress.log("interception: parking \(otherScopes) scopes")
        var parked = ParkedScopes()
        await parked.grow(to: otherScopes)
        let crowdedSeries = await RequestComparison.measure([crowdedComparison], pairs: pairs, warmUpPairs: warmUpPairs, label: "interception, crowded")
        await parked.closeAll()

        await globalStub.remove()
        for worker in [outside, one, many, crowded] {
            await worker.finish()
        }
        let measured = Array(zip(quiet, quietSeries)) + zip([crowdedComparison], crowdedSeries)
        // Report order: the three held to goals first.
        let order = [0, 1, 4, 2, 3]
        let comparisons = order.map { measured[$0].1.comparison(measured[$0].0.name, goals: measured[$0].0.goals) }
        return section(comparisons)
    }

    /// Builds the report section from the comparisons.
    private func section(_ comparisons: [Comparison]) -> ReportSection {
        let batch = Format.number(Double(requestsPerBatch), digits: 0)
        var notes = [
            "Method: each comparison runs on one task, which makes batches of \(batch) requests one after another, alternating the hand-rolled protocol's session (B) and URLStubs' session (V) as B V V B B V V B ...; \(warmUpPairs) warm-up pair(s) are discarded. Both sessions are built from URLSessionConfiguration.stubbed (ephemeral, urlCache nil); the baseline's has the hand-rolled protocol in place of StubURLProtocol. Every body is 1,024 bytes.",
            "Per request (wall time, CPU time, context switches): the batch's wall time, the process's CPU time (clock_gettime CLOCK_PROCESS_CPUTIME_ID, every thread) and its context switches (getrusage RUSAGE_SELF, ru_nvcsw + ru_nivcsw) over the batch, divided by its requests; each side's figure is the median over its batches. Median and p99 request: over every request of the side, each timed from the call to its return. The kernel's share of CPU time: getrusage's system time over user plus system time, summed over the side's batches (getrusage splits the two by sampling at the scheduler's tick on Linux, too coarsely for one batch); here and in every section with paired comparisons.",
            "ratio = URLStubs / hand-rolled of the two figures shown; paired = the median over pairs of URLStubs / hand-rolled of adjacent batches (for context switches, the median of URLStubs minus hand-rolled). Goals are held to the paired figure.",
            "Each comparison's baseline runs on the comparison's own task and requests the same URL (its table has an entry with a 1 KiB body for every URL requested): in the scope with 1 stub, the scope with 1,000 stubs (the request matches the 501st), the scope measured among 1,000 parked scopes (3 stubs each, one for the very URL requested, with another body), or outside any scope (URLStubs answering from StubScope.global). Each asks for the same URL again and again; the shapes section asks for a different URL every request.",
            "Completion-handler: both sides call dataTask(with:completionHandler:) and resume(), bridged with a checked continuation.",
            "Reuse: the hand-rolled protocol builds an HTTPURLResponse for every request; a URLStubs stub reuses the one it built last when the URL is the same, and a request reuses the previous request's parsed URL when its text is the same. These rows ask for the same URL every time, so both are reused; the shapes section's rows, which ask for a different URL every request, show the cost without them.",
            "Every answer is checked after its batch's readings (the right body); checks are not part of the measured cost.",
        ]
        let unexpected = comparisons.filter { $0.unexpected != 0 }
        if unexpected.isEmpty {
            let total = comparisons.reduce(0) { $0 + $1.pairs * 2 * $1.requestsPerBatch }
            notes.append("All \(Format.number(Double(total), digits: 0)) measured requests ended as expected.")
        } else {
            notes.append("UNEXPECTED answers (wrong body or error): " + unexpected.map { "\($0.name): \($0.unexpected)" }.joined(separator: ", "))
        }
        return ReportSection(
            name: MeasurementKind.interception.rawValue,
            title: "Interception: one request at a time through URLSession, per request",
            baseline: "hand-rolled static-dictionary MockURLProtocol answering synchronously in startLoading, same task, paired",
            comparisons: comparisons,
            notes: notes
        )
    }
}
