#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Measures registering 1,000 and 10,000 stubs (distinct exact URLs) in a fresh
/// scope, and ending a scope that holds 1,000 stubs and 1,000 logged requests.
///
/// Registration is timed from before the first `await scope.stub(...)` to after
/// the last, inside a scope opened just before (its opening is not counted). The
/// ending is timed from the last statement of `withStubScope`'s body to the return
/// of `withStubScope`. The measurements alternate repetition by repetition.
struct RegistrationBenchmark {
    /// Whether this is the smoke run.
    let quick: Bool

    /// Repetitions of registering 1,000 stubs.
    var smallRepetitions: Int { quick ? 2 : 40 }
    /// Repetitions of registering 10,000 stubs.
    var largeRepetitions: Int { quick ? 1 : 10 }
    /// Repetitions of ending a full scope.
    var closingRepetitions: Int { quick ? 1 : 20 }
    /// The numbers of stubs registered.
    var stubCounts: (small: Int, large: Int) { (1_000, 10_000) }

    /// Runs the measurement and returns its section of the report.
    func run() async -> ReportSection {
        let smallURLs = (0..<stubCounts.small).map { BenchmarkFixtures.itemURL($0).absoluteString }
        let largeURLs = (0..<stubCounts.large).map { BenchmarkFixtures.itemURL($0).absoluteString }
        let requests = (0..<stubCounts.small).map { BenchmarkFixtures.request(BenchmarkFixtures.itemURL($0)) }
        let response = StubResponse.data(BenchmarkFixtures.body(tag: "registration"))
        var small: [BatchSample] = []
        var large: [BatchSample] = []
        var closing: [BatchSample] = []
        var failures = 0
        Progress.log("registration: warm-up")
        _ = await Self.register(smallURLs, response: response)
        let rounds = max(smallRepetitions, largeRepetitions, closingRepetitions)
        for round in 0..<rounds {
            Progress.log("registration: round \(round + 1)/\(rounds)")
            if round < smallRepetitions {
                guard let sample = await Self.register(smallURLs, response: response) else { failures += 1; continue }
                small.append(sample)
            }
            if round < largeRepetitions {
                guard let sample = await Self.register(largeURLs, response: response) else { failures += 1; continue }
                large.append(sample)
            }
            if round < closingRepetitions {
                let (sample, failed) = await Self.closeFullScope(smallURLs, requests: requests, response: response)
                failures += failed
                sample.map { closing.append($0) }
            }
        }
        return section(small: small, large: large, closing: closing, failures: failures)
    }

    /// Builds the report section from the samples.
    private func section(small: [BatchSample], large: [BatchSample], closing: [BatchSample], failures: Int) -> ReportSection {
        /// The name of a registration row about `count` stubs.
        func name(_ count: Int, _ what: String) -> String {
            "register \(Format.number(Double(count), digits: 0)) stubs, \(what)"
        }
        let smallPerStub = ReportRow.samples(name(stubCounts.small, "per stub"), unit: "µs", small.map(\.wallPerRequest), isReference: true)
        var rows = [
            ReportRow.samples(name(stubCounts.small, "wall time"), unit: "ms", small.map { $0.wallMicroseconds / 1_000 }, isReference: false, goal: .valueBelow(5, "< 5 ms")),
            smallPerStub,
            ReportRow.samples(name(stubCounts.small, "CPU per stub"), unit: "µs", small.map(\.cpuPerRequest), isReference: false),
            ReportRow.samples(name(stubCounts.large, "wall time"), unit: "ms", large.map { $0.wallMicroseconds / 1_000 }, isReference: false),
            ReportRow.samples(name(stubCounts.large, "per stub"), unit: "µs", large.map(\.wallPerRequest), baseline: smallPerStub),
            ReportRow.samples(name(stubCounts.large, "CPU per stub"), unit: "µs", large.map(\.cpuPerRequest), isReference: false),
            ReportRow.samples("end of a full scope, wall time", unit: "ms", closing.map { $0.wallMicroseconds / 1_000 }, isReference: false),
            ReportRow.samples("end of a full scope, CPU time", unit: "ms", closing.map { $0.cpuMicroseconds / 1_000 }, isReference: false),
        ]
        if failures != 0 {
            rows.append(.single("UNEXPECTED: scopes that threw or requests that failed", unit: "count", Double(failures)))
        }
        return ReportSection(
            name: MeasurementKind.registration.rawValue,
            title: "Registration and scope end",
            baseline: "none (absolute times); the 10,000-stub per-stub row is compared with the 1,000-stub one",
            rows: rows,
            notes: [
                "Method: each sample is one fresh scope (withStubScope) in which `await scope.stub(.get(url), with: .data(body))` is called for distinct exact URLs (built before the timing), timed from before the first call to after the last; CPU time is the whole process's (clock_gettime CLOCK_PROCESS_CPUTIME_ID) over the same span. Per stub = total / stubs. A discarded 1,000-stub repetition warms up first; 1,000-stub, 10,000-stub and scope-end repetitions alternate.",
                "End of a full scope: the scope registers 1,000 stubs and makes 1,000 requests (one per stub, through URLSession.data(for:), each answered and checked), then its body returns; timed from the body's last statement to withStubScope's return (all the work the scope's end does). Reported without a goal.",
            ]
        )
    }

    /// Registers a stub for each of `urls` in a fresh scope; returns the timing of
    /// the registrations, or `nil` if the scope reported problems.
    static func register(_ urls: [String], response: StubResponse) async -> BatchSample? {
        try? await withStubScope("registration") { scope in
            let meter = BatchMeter()
            for url in urls {
                await scope.stub(.get(url), with: response)
            }
            return meter.stop(requests: urls.count, requestMicroseconds: [], unexpected: 0)
        }
    }

    /// Fills a scope with a stub for each of `urls` and answers each of `requests`,
    /// then times the scope's end; returns the timing (or `nil` if the scope threw)
    /// and how many requests failed.
    static func closeFullScope(_ urls: [String], requests: [URLRequest], response: StubResponse) async -> (BatchSample?, failed: Int) {
        var failed = 0
        let meter: BatchMeter? = try? await withStubScope("scope end") { scope in
            for url in urls {
                await scope.stub(.get(url), with: response)
            }
            for request in requests where await RequestTimer.answer(request, through: BenchmarkFixtures.stubbedSession, style: .async) == nil {
                failed += 1
            }
            return BatchMeter()
        }
        guard let meter else { return (nil, failed + 1) }
        return (meter.stop(requests: 1, requestMicroseconds: [], unexpected: 0), failed)
    }
}
