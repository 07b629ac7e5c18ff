#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
@_spi(Benchmarking) import URLStubs

/// Measures the time the registry takes to find the stub for a request, without
/// URL loading: `matchWithoutRecording`, from the caller's `await` to its return.
///
/// Three scopes are compared: one with 1 exact stub, one with 10,000 exact stubs (the
/// request matches one in the middle), and one with 100 custom-predicate stubs (the
/// request matches the oldest, so all 100 predicates run, newest first). A fourth,
/// informative scope holds 100 stubs for one URL that differ only by a header value
/// (the request matches the oldest): the common "same endpoint, several answers"
/// case, where every stub of the URL's bucket is evaluated. Rounds alternate the
/// scopes, a turn of calls each.
struct MatchingBenchmark {
    /// Whether this is the smoke run.
    let quick: Bool

    /// Rounds over the scopes.
    var rounds: Int { quick ? 3 : 60 }
    /// Calls per scope and round; each call is one sample.
    var callsPerTurn: Int { quick ? 50 : 500 }
    /// Exact stubs in the large scope.
    var exactStubs: Int { 10_000 }
    /// Stubs in the predicate scope, and in the by-header scope.
    var predicateStubs: Int { 100 }

    /// Runs the measurement and returns its section of the report.
    func run() async -> ReportSection {
        let body = BenchmarkFixtures.body(tag: "matching")
        let exactCount = exactStubs
        let predicateCount = predicateStubs
        Progress.log("matching: registering stubs")
        let one = await ScopedWorker.scoped { scope in
            await scope.stub(.get(BenchmarkFixtures.itemURL(0).absoluteString), with: .data(body))
        }
        let many = await ScopedWorker.scoped { scope in
            for index in 0..<exactCount {
                await scope.stub(.get(BenchmarkFixtures.itemURL(index).absoluteString), with: .data(body))
            }
        }
        let predicates = await ScopedWorker.scoped { scope in
            for index in 0..<predicateCount {
                let path = "/items/\(index)"
                await scope.stub(.predicate("path is \(path)") { $0.url.path == path }, with: .data(body))
            }
        }
        let headers = await ScopedWorker.scoped { scope in
            for index in 0..<predicateCount {
                let pattern = RequestPattern.get(BenchmarkFixtures.itemURL(0).absoluteString).header("X-Variant", "\(index)")
                await scope.stub(pattern, with: .data(body))
            }
        }
        var variantRequest = BenchmarkFixtures.request(BenchmarkFixtures.itemURL(0))
        variantRequest.setValue("0", forHTTPHeaderField: "X-Variant")
        let subjects: [(StubScope?, URLRequest)] = [
            (one.scope, BenchmarkFixtures.request(BenchmarkFixtures.itemURL(0))),
            (many.scope, BenchmarkFixtures.request(BenchmarkFixtures.itemURL(exactCount / 2))),
            (predicates.scope, BenchmarkFixtures.request(BenchmarkFixtures.itemURL(0))),
            (headers.scope, variantRequest),
        ]
        var samples = Array(repeating: [Double](), count: subjects.count)
        var misses = 0
        for round in 0...rounds {
            // Round 0 warms up and is discarded.
            Progress.log(round == 0 ? "matching: warm-up" : "matching: round \(round)/\(rounds)")
            for (index, subject) in subjects.enumerated() {
                guard let scope = subject.0 else { continue }
                for _ in 0..<callsPerTurn {
                    let start = Stopwatch.now()
                    let matched = await scope.matchWithoutRecording(subject.1)
                    let elapsed = Stopwatch.microseconds(since: start)
                    if !matched {
                        misses += 1
                    }
                    if round > 0 {
                        samples[index].append(elapsed)
                    }
                }
            }
        }
        for worker in [one, many, predicates, headers] {
            await worker.finish()
        }
        let baseline = ReportRow.samples("URLStubs: 1 exact stub", unit: "µs", samples[0])
        var notes = [
            "Each sample is one `await scope.matchWithoutRecording(request)` (SPI Benchmarking), timed from the call to its return: finding the stub that would answer the request, without URL loading, recording the request or taking a use. Rounds alternate the four scopes, \(Format.number(Double(callsPerTurn), digits: 0)) calls each, after a discarded round.",
            "Exact stubs: 1 stub, or 10,000 stubs on distinct URLs with the request matching the 5,001st. Predicates: 100 `.predicate` stubs, each reading the request URL's path; the request matches the oldest, which the newest-first search reaches last.",
            "By header: 100 stubs GET /items/0 with .header(\"X-Variant\", \"0\"...\"99\"); the request carries X-Variant: 0, matching the oldest.",
        ]
        if misses != 0 {
            notes.append("UNEXPECTED: \(misses) calls found no stub.")
        }
        return ReportSection(
            name: MeasurementKind.matching.rawValue,
            title: "Matching (µs per match, registry only)",
            baseline: "matching in a scope holding 1 exact stub",
            rows: [
                baseline,
                .samples("URLStubs: 10,000 exact stubs", unit: "µs", samples[1], baseline: baseline, goal: .ratioAtMost(1.5)),
                .samples("URLStubs: 100 custom-predicate stubs", unit: "µs", samples[2], baseline: baseline),
                .samples("URLStubs: 100 stubs on one URL, by header", unit: "µs", samples[3], baseline: baseline),
            ],
            notes: notes
        )
    }
}
