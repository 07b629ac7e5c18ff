#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What a test adds to the one-test shape, for ``TestCostBreakdown``: stubs no
/// request asks for, and an empty scope nested in the test's own.
struct TestExtras: Sendable {
    /// For each test of the pool, the URLs of the stubs it registers besides its
    /// own; `nil` for none.
    var stubURLs: [[String]]?
    /// Whether each test opens and ends an empty scope nested in its own.
    var nestedScope = false

    /// Nothing more: the one-test shape as it is.
    static let none = TestExtras()
}

/// Where the one-test row's cost goes: what a stub and a scope cost inside tests
/// that make requests, measured as they run there, between Foundation's work on
/// each request, rather than back to back.
///
/// Each part is the paired difference of two runs of the one-test shape (both
/// URLStubs), with the part added and without it, alternating B V V B: the one
/// test with ``extraStubs`` more stubs (for URLs no request asks for, so that
/// matching and answering are the same on both sides), and the one test with an
/// empty scope opened and ended inside it. The difference per test, divided by
/// the parts added, is that part's cost.
struct TestCostBreakdown {
    /// Measured pairs per part.
    let pairs: Int
    /// Discarded pairs per part before the measured ones.
    let warmUpPairs: Int
    /// Tests per batch.
    let testsPerBatch: Int

    /// Stubs added to each test to measure a stub: with the test's own 5 they stay
    /// at most at a scope's index threshold (8 stubs; it indexes them beyond that),
    /// so that they are compared one by one, as a short test's stubs are.
    static let extraStubs = 3

    /// Measures both parts on `worker` (a task outside any scope), with the tests
    /// of `pool`, and returns their rows (CPU time per stub and per scope) and how
    /// many requests did not get `body`, or were in a test whose scope threw.
    func run(pool: [[URLRequest]], body: Data, on worker: ScopedWorker) async -> (rows: [ReportRow], unexpected: Int) {
        let stubURLs = (0..<pool.count).map { test in
            (0..<Self.extraStubs).map { BenchmarkFixtures.origin + "/tests/\(test)/unrequested-\($0)" }
        }
        let stubs = await measure(
            "stubs",
            adding: TestExtras(stubURLs: stubURLs),
            count: Self.extraStubs,
            pool: pool,
            body: body,
            on: worker
        )
        let scopes = await measure("nested scope", adding: TestExtras(nestedScope: true), count: 1, pool: pool, body: body, on: worker)
        let rows = [
            ReportRow.samples(
                "in a test: an exact-URL stub more (\(Self.extraStubs) newest stubs no request asks for, added to the one test), CPU time per stub",
                unit: "µs",
                stubs.differences,
                isReference: false
            ),
            ReportRow.samples(
                "in a test: an empty `withStubScope { _ in }` more, nested in the one test's scope, CPU time per scope",
                unit: "µs",
                scopes.differences,
                isReference: false
            ),
        ]
        return (rows, stubs.unexpected + scopes.unexpected)
    }

    /// The paired differences, per test and per part added, of the one test with
    /// `extras` (`count` parts) and without them, and how many requests of either
    /// side ended unexpectedly (warm-up included).
    private func measure(
        _ label: String,
        adding extras: TestExtras,
        count: Int,
        pool: [[URLRequest]],
        body: Data,
        on worker: ScopedWorker
    ) async -> (differences: [Double], unexpected: Int) {
        let tests = testsPerBatch
        let requestsPerTest = Double(SuiteShapesBenchmark.requestsPerTest)
        let rotation = TestRotation(count: pool.count)
        let plain: @Sendable () async -> BatchSample = {
            let first = rotation.baselineStart(advancingBy: tests)
            return await worker.run { await SuiteShapesBenchmark.stubbedTests(pool, from: first, count: tests, body: body) }
        }
        let added: @Sendable () async -> BatchSample = {
            let first = rotation.variantStart(advancingBy: tests)
            return await worker.run { await SuiteShapesBenchmark.stubbedTests(pool, from: first, count: tests, body: body, extras: extras) }
        }
        var differences: [Double] = []
        var unexpected = 0
        for round in 0..<(warmUpPairs + pairs) {
            Progress.log("shapes: cost of \(label) in a test \(round + 1)/\(warmUpPairs + pairs)")
            let (without, with) = await PairedSeries.pair(number: round, baseline: plain, variant: added)
            unexpected += without.unexpected + with.unexpected
            guard round >= warmUpPairs else { continue }
            differences.append((with.cpuPerRequest - without.cpuPerRequest) * requestsPerTest / Double(count))
        }
        return (differences, unexpected)
    }
}
