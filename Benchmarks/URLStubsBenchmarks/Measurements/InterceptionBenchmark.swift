#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Measures the time of one request through `URLSession.data(for:)` answered by
/// URLStubs, against the same request answered by a hand-rolled static-dictionary
/// protocol through a session configured the same way.
///
/// Every round alternates baseline and variant turns: B V1 B V2 B V3 B V4 Bf V5,
/// where B is the baseline answering a body and Bf the baseline answering an error.
/// The 1,000 other scopes of V3 are opened before its turn and closed after it.
struct InterceptionBenchmark {
    /// Whether this is the smoke run.
    let quick: Bool

    /// Rounds over every variant.
    var rounds: Int { quick ? 3 : 120 }
    /// Requests per variant and round.
    var requestsPerTurn: Int { quick ? 10 : 100 }
    /// Discarded requests after opening or closing the other scopes.
    var settleRequests: Int { quick ? 5 : 30 }
    /// Other scopes parked open during the crowded variant.
    var otherScopes: Int { 1_000 }
    /// Stubs in the scope of the many-stubs variant.
    var stubsInScope: Int { 1_000 }

    /// Runs the measurement and returns its section of the report.
    func run() async -> ReportSection {
        let stubbed = BenchmarkFixtures.stubbedSession
        let baseline = BenchmarkFixtures.baselineSession
        let single = BenchmarkFixtures.request(BenchmarkFixtures.singleURL)
        let item = BenchmarkFixtures.request(BenchmarkFixtures.itemURL(stubsInScope / 2))
        let global = BenchmarkFixtures.request(BenchmarkFixtures.globalURL)
        let missing = BenchmarkFixtures.request(BenchmarkFixtures.missingURL)
        let oneBody = BenchmarkFixtures.body(tag: "one stub")
        let crowdedBody = BenchmarkFixtures.body(tag: "crowded")
        let globalBody = BenchmarkFixtures.body(tag: "global")
        let itemBody = BenchmarkFixtures.body(tag: "item \(stubsInScope / 2)")
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
        let unmatched = await ScopedWorker.scoped { scope in
            await scope.stub(.get(BenchmarkFixtures.singleURL.absoluteString), with: .data(oneBody))
        }
        let globalStub = await StubScope.global.stub(.get(BenchmarkFixtures.globalURL.absoluteString), with: .data(globalBody))

        let count = requestsPerTurn
        let settleRequests = self.settleRequests
        let baselineBody = BenchmarkFixtures.baselineBody
        var series: [String: [Double]] = [:]
        var unexpected: [String: Int] = [:]
        var parked = ParkedScopes()
        /// Runs one turn of requests on `worker` and, when `record` is set, keeps its samples under `key`.
        func turn(_ key: String, on worker: ScopedWorker, _ request: URLRequest, _ session: URLSession, _ expectation: RequestTimer.Expectation, record: Bool = true) async {
            let requests = key == "settle" ? settleRequests : count
            let result = await worker.run { await RequestTimer.time(requests, request, through: session, expecting: expectation) }
            guard record else { return }
            series[key, default: []] += result.microseconds
            unexpected[key, default: 0] += result.unexpected
        }
        for round in 0...rounds {
            // Round 0 warms every path up and is discarded.
            let record = round > 0
            Progress.log(round == 0 ? "interception: warm-up" : "interception: round \(round)/\(rounds)")
            await turn("B", on: outside, single, baseline, .body(baselineBody), record: record)
            await turn("V1", on: one, single, stubbed, .body(oneBody), record: record)
            await turn("B", on: outside, single, baseline, .body(baselineBody), record: record)
            await turn("V2", on: many, item, stubbed, .body(itemBody), record: record)
            await turn("B", on: outside, single, baseline, .body(baselineBody), record: record)
            // Opening and closing 1,000 scopes leaves a few milliseconds of work
            // behind (parked tasks settling, memory being freed); a short discarded
            // turn absorbs it so that it is not charged to the next measured turn.
            await parked.grow(to: otherScopes)
            await turn("settle", on: crowded, single, stubbed, .body(crowdedBody), record: false)
            await turn("V3", on: crowded, single, stubbed, .body(crowdedBody), record: record)
            await parked.closeAll()
            await turn("settle", on: outside, single, baseline, .body(baselineBody), record: false)
            await turn("B", on: outside, single, baseline, .body(baselineBody), record: record)
            await turn("V4", on: outside, global, stubbed, .body(globalBody), record: record)
            await turn("Bf", on: outside, missing, baseline, .failure, record: record)
            await turn("V5", on: unmatched, missing, stubbed, .failure, record: record)
        }
        await globalStub.remove()
        let unmatchedReports = await unmatched.finish()
        for worker in [outside, one, many, crowded] {
            await worker.finish()
        }
        return section(series: series, unexpected: unexpected, unmatchedReports: unmatchedReports)
    }

    /// Builds the report section from the samples.
    private func section(series: [String: [Double]], unexpected: [String: Int], unmatchedReports: Int) -> ReportSection {
        let bodyBaseline = ReportRow.samples("hand-rolled MockURLProtocol: 200 with a 1 KiB body", unit: "µs", series["B"] ?? [])
        let failureBaseline = ReportRow.samples("hand-rolled MockURLProtocol: error answer", unit: "µs", series["Bf"] ?? [])
        let rows = [
            bodyBaseline,
            failureBaseline,
            ReportRow.samples("URLStubs: 1 stub in the scope", unit: "µs", series["V1"] ?? [], baseline: bodyBaseline, goal: .ratioAtMost(1.10)),
            ReportRow.samples("URLStubs: 1,000 stubs in the scope", unit: "µs", series["V2"] ?? [], baseline: bodyBaseline, goal: .ratioAtMost(1.15)),
            ReportRow.samples("URLStubs: 1 stub, 1,000 other live scopes", unit: "µs", series["V3"] ?? [], baseline: bodyBaseline, goal: .ratioAtMost(1.15)),
            ReportRow.samples("URLStubs: served by the global namespace", unit: "µs", series["V4"] ?? [], baseline: bodyBaseline),
            ReportRow.samples("URLStubs: unmatched request (URLError)", unit: "µs", series["V5"] ?? [], baseline: failureBaseline),
        ]
        var notes = [
            "Each sample is one `try await session.data(for:)`, timed from the call to its return, requests one after another. Both sessions are built from URLSessionConfiguration.stubbed (ephemeral, urlCache nil); the baseline's has the hand-rolled protocol in place of StubURLProtocol. Every body is 1,024 bytes.",
            "The baseline answers synchronously in startLoading (didReceive, didLoad, didFinishLoading), as blog posts do; its error row answers didFailWithError. The unmatched row is compared with that error row.",
            "1,000 stubs: the scope holds 1,000 exact stubs and the request matches the 501st. Other live scopes: 1,000 parked scopes with 3 stubs each, one for the very URL requested with a different body. Global: the request is made outside any scope and answered by a stub on StubScope.global.",
            "Every response body was checked after its timing; rounds alternate B V1 B V2 B V3 B V4 Bf V5 after a discarded warm-up round; after the 1,000 scopes are opened, and after they are closed, \(settleRequests) discarded requests absorb the work they leave behind.",
        ]
        let wrong = unexpected.filter { $0.value != 0 }
        if wrong.isEmpty {
            notes.append("All \(Format.number(Double(series.values.map(\.count).reduce(0, +)), digits: 0)) requests ended as expected (right body, or an error for the error rows).")
        } else {
            notes.append("UNEXPECTED answers (wrong body or error): " + wrong.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
        }
        notes.append("Where the time goes: StubURLProtocol resolves the request in the registry inside startLoading() and calls the client before returning, on Foundation's work queue, as the baseline does; the difference is reading the scope from the task, recording the request, matching (about 1 µs, see the matching section) and counting the use.")
        notes.append("The unmatched variant's scope reported \(Format.number(Double(unmatchedReports), digits: 0)) problems when it ended (one per unmatched request, including warm-up), as StubVerificationError.")
        return ReportSection(
            name: MeasurementKind.interception.rawValue,
            title: "Interception overhead (µs per request through URLSession.data(for:))",
            baseline: "hand-rolled static-dictionary MockURLProtocol answering synchronously in startLoading, through a session configured like .stubbed",
            rows: rows,
            notes: notes
        )
    }
}
