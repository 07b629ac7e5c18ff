#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
@_spi(Benchmarking) import URLStubs

/// What the template and unmatched rows' resolutions cost on their own, without URL
/// loading: the template request's with warm caches, as in a loop that does nothing
/// else, and with caches emptied by other work first, as in a test, where
/// Foundation's work on each request comes between two resolutions; the unmatched
/// request's warm.
///
/// Each request is resolved as `startLoading()` resolves it
/// (`resolveWithoutLoading`: recorded, matched, a use taken, its answer written
/// down), on one thread, timed by that thread's CPU clock. A round runs three
/// batches: resolutions alone (warm); each resolution after touching
/// ``CacheEvictingMemory`` (cold); and the touching alone, which the cold
/// batch's time is paired with and reduced by. The cold and touching-only batches
/// alternate their order from round to round. Each round also resolves as many
/// requests no stub matches (warm), in a scope of their own: the unmatched row's
/// own work, its near-miss report and `URLError` included.
struct ResolutionCacheBenchmark {
    /// Whether this is the smoke run.
    let quick: Bool

    /// Measured rounds (one more warms up).
    var rounds: Int { quick ? 2 : 30 }
    /// Requests per batch.
    var requestsPerBatch: Int { quick ? 10 : 200 }
    /// The template request's warm and cold rows, then the unmatched request's row.
    func run() async -> [ReportRow] {
        let body = BenchmarkFixtures.body(tag: "resolution")
        let worker = await ScopedWorker.scoped { scope in
            await scope.stub(.get(BenchmarkFixtures.origin + "/items/{id}"), with: .data(body))
        }
        let unmatchedWorker = await ScopedWorker.scoped { scope in
            await scope.stub(.get(BenchmarkFixtures.singleURL.absoluteString), with: .data(body))
        }
        guard let scope = worker.scope, let unmatchedScope = unmatchedWorker.scope else {
            _ = await worker.finish()
            _ = await unmatchedWorker.finish()
            return []
        }
        let missing = Array(repeating: BenchmarkFixtures.request(BenchmarkFixtures.missingURL), count: requestsPerBatch)
        let requests = (0..<requestsPerBatch).map { BenchmarkFixtures.request(BenchmarkFixtures.itemURL($0)) }
        let memory = CacheEvictingMemory()

        var warm: [Double] = []
        var cold: [Double] = []
        var unmatched: [Double] = []
        var unanswered = 0
        var unmatchedAnswered = 0
        for round in 0...rounds {
            Progress.log("shapes: resolution alone, round \(round)/\(rounds)")
            let resolveAll = Self.batch(requests, resolvingIn: scope, touching: nil, unanswered: &unanswered)
            let touchFirst = round % 2 == 0
            let touchOnly = touchFirst ? Self.batch(requests, resolvingIn: nil, touching: memory, unanswered: &unanswered) : 0
            let touchThenResolve = Self.batch(requests, resolvingIn: scope, touching: memory, unanswered: &unanswered)
            let touchOnlyAfter = touchFirst ? touchOnly : Self.batch(requests, resolvingIn: nil, touching: memory, unanswered: &unanswered)
            var unmatchedUnanswered = 0
            let resolveUnmatched = Self.batch(missing, resolvingIn: unmatchedScope, touching: nil, unanswered: &unmatchedUnanswered)
            unmatchedAnswered += missing.count - unmatchedUnanswered
            if round > 0 { // Round 0 warms up.
                let count = Double(requests.count)
                warm.append(resolveAll / count)
                cold.append(max(0, touchThenResolve - touchOnlyAfter) / count)
                unmatched.append(resolveUnmatched / Double(missing.count))
            }
        }
        _ = await worker.finish()
        // Its scope reports each unmatched request once: fewer means some failed
        // another way (an ended scope, say) and were not the unmatched row's work.
        let unmatchedReports = await unmatchedWorker.finish()
        let expectedReports = (rounds + 1) * missing.count
        let note = unanswered == 0 ? "" : " (UNEXPECTED: \(unanswered) requests unanswered)"
        let unmatchedNote = switch (unmatchedAnswered, unmatchedReports) {
        case (0, expectedReports): ""
        case (0, _): " (UNEXPECTED: \(unmatchedReports) unmatched requests reported, \(expectedReports) made)"
        default: " (UNEXPECTED: \(unmatchedAnswered) requests answered)"
        }
        return [
            ReportRow.samples("template request's resolution alone, no URL loading, warm caches: CPU time per request\(note)", unit: "µs", warm, isReference: false),
            ReportRow.samples("the same after \(CacheEvictingMemory.byteCount >> 20) MiB of other memory was touched (caches emptied): CPU time per request", unit: "µs", cold, isReference: false),
            ReportRow.samples("unmatched request's resolution alone (near-miss report and URLError built), warm caches: CPU time per request\(unmatchedNote)", unit: "µs", unmatched, isReference: false),
        ]
    }

    /// One batch on this thread: for each request, touches one byte per cache line
    /// of `memory` when given, then resolves the request in `scope` when given;
    /// returns the thread's CPU time for the batch, in microseconds.
    private static func batch(
        _ requests: [URLRequest],
        resolvingIn scope: StubScope?,
        touching memory: CacheEvictingMemory?,
        unanswered: inout Int
    ) -> Double {
        let start = ThreadCPUClock.nanoseconds()
        for request in requests {
            memory?.touch()
            if let scope, !scope.resolveWithoutLoading(request) {
                unanswered += 1
            }
        }
        return Double(ThreadCPUClock.nanoseconds() - start) / 1_000
    }
}
