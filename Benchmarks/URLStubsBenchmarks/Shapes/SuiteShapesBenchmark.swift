#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// The shapes test suites have, each paired with a hand-rolled protocol doing the
/// same work: a computed stub (and one whose closure awaits) and a template stub
/// asked for a different URL every request, the template stub again through
/// sessions with a delegate, a whole test (a scope, 5 stubs, 5 requests, the scope's
/// end), and a request no stub matches; two reference rows, the hand-rolled
/// protocol against itself with a known cost added per request; then the cost of an
/// empty scope.
///
/// Nothing is reused across requests that a suite would not repeat: every request
/// of a batch asks for another URL, and every test of a batch registers stubs for
/// URLs of its own.
struct SuiteShapesBenchmark {
    /// Whether this is the smoke run.
    let quick: Bool

    /// Measured pairs per comparison.
    var pairs: Int { quick ? 2 : 60 }
    /// Discarded pairs per comparison before the measured ones.
    var warmUpPairs: Int { quick ? 1 : 2 }
    /// Measured pairs per part of the in-a-test rows: each part is a few percent of
    /// its batches, so its paired difference needs more pairs than a comparison's
    /// ratio to settle.
    var breakdownPairs: Int { quick ? 2 : 240 }
    /// Requests per batch.
    var requestsPerBatch: Int { quick ? 10 : 100 }
    /// The reference rows' protocols, each with its session: the dictionary
    /// protocol doing 2 µs, then 5 µs, more work per request.
    static let references: [(BusyMockURLProtocol.Type, URLSession)] = [BriefBusyMockURLProtocol.self, BusyMockURLProtocol.self].map { busy in
        (busy, BenchmarkFixtures.session(answeredBy: busy))
    }
    /// The session of the split rows' reference protocol, which resolves each
    /// request in a URLStubs scope before it answers from the dictionary.
    static let resolvingSession = BenchmarkFixtures.session(answeredBy: ResolvingMockURLProtocol.self)
    /// Stubs and requests of one test in the one-test comparison.
    static let requestsPerTest = 5
    /// Empty scopes per sample of the empty-scope row, and samples.
    var emptyScopes: (perSample: Int, samples: Int) { quick ? (100, 2) : (1_000, 30) }

    /// Runs the measurement and returns its section of the report.
    func run() async -> ReportSection {
        let batch = requestsPerBatch
        let tests = batch / Self.requestsPerTest
        let baselineBody = BenchmarkFixtures.baselineBody
        let computedBody = BenchmarkFixtures.body(tag: "computed")
        let awaitingBody = BenchmarkFixtures.body(tag: "awaiting")
        let templateBody = BenchmarkFixtures.body(tag: "template")
        let testBody = BenchmarkFixtures.body(tag: "one test")
        let users = (0..<batch).map { BenchmarkFixtures.request(Self.userURL($0)) }
        let items = (0..<batch).map { BenchmarkFixtures.request(BenchmarkFixtures.itemURL($0)) }
        let missing = BenchmarkFixtures.request(BenchmarkFixtures.missingURL)
        // Every test of a batch has URLs of its own; consecutive batches take the
        // next tests of a pool, so that no batch repeats the one before it.
        let testPool = (0..<(tests * 8)).map { test in
            (0..<Self.requestsPerTest).map { BenchmarkFixtures.request(Self.testURL(test: test, request: $0)) }
        }

        Progress.log("shapes: registering stubs")
        let computed = await ScopedWorker.scoped { scope in
            await Self.stubComputed(in: scope, answering: computedBody)
        }
        let awaiting = await ScopedWorker.scoped { scope in
            await scope.stub(.get(BenchmarkFixtures.origin + "/users/{id}")) { request in
                await Task.yield() // An `await`: the asynchronous form, answered later.
                return .data(awaitingBody, headers: ["X-User-ID": request.pathParameters["id"] ?? ""])
            }
        }
        let template = await ScopedWorker.scoped { scope in
            await scope.stub(.get(BenchmarkFixtures.origin + "/items/{id}"), with: .data(templateBody))
        }
        // The scope the resolving reference protocol resolves in: the template
        // row's stub, in a scope of its own.
        let resolving = await ScopedWorker.scoped { scope in
            await scope.stub(.get(BenchmarkFixtures.origin + "/items/{id}"), with: .data(templateBody))
        }
        ResolvingMockURLProtocol.scope.withLock { $0 = resolving.scope }
        let unmatched = await ScopedWorker.scoped { scope in
            await scope.stub(.get(BenchmarkFixtures.singleURL.absoluteString), with: .data(templateBody))
        }
        let outside = await ScopedWorker.unscoped()

        let computedHandler = Self.computedHandler(answering: baselineBody)
        let testRotation = TestRotation(count: testPool.count)
        let cases = [
            PairedCase(
                RequestComparison(
                    name: "computed stub `{ request in ... }` echoing a path parameter, a different URL every request",
                    worker: computed,
                    baseline: (users, .body(baselineBody)),
                    variant: (users, .body(computedBody)),
                    baselineSession: HandlerMockURLProtocol.session,
                    requestsPerBatch: batch,
                    goals: ComparisonGoals(cpu: .ratioAtMost(1.15), contextSwitches: .differenceAtMost(0.1))
                ),
                prepare: { HandlerMockURLProtocol.setHandler(computedHandler) }
            ),
            PairedCase(
                RequestComparison(
                    name: "the computed row with a closure that awaits (`{ request in await ...; return ... }`), answered later from a task of its own",
                    worker: awaiting,
                    baseline: (users, .body(baselineBody)),
                    variant: (users, .body(awaitingBody)),
                    baselineSession: HandlerMockURLProtocol.session,
                    requestsPerBatch: batch
                ),
                prepare: { HandlerMockURLProtocol.setHandler(computedHandler) }
            ),
            PairedCase(RequestComparison(
                name: "template stub `/items/{id}` with a fixed body, a different URL every request",
                worker: template,
                baseline: (items, .body(baselineBody)),
                variant: (items, .body(templateBody)),
                requestsPerBatch: batch,
                goals: .parity
            )),
            PairedCase(RequestComparison(
                name: "the template row through a session with a delegate (as apps' sessions often have one), on both sides",
                worker: template,
                baseline: (items, .body(baselineBody)),
                variant: (items, .body(templateBody)),
                baselineSession: BenchmarkFixtures.delegatedBaselineSession,
                variantSession: BenchmarkFixtures.delegatedStubbedSession,
                requestsPerBatch: batch,
                goals: ComparisonGoals(cpu: .ratioAtMost(1.10), contextSwitches: .differenceAtMost(0.1))
            )),
            PairedCase(
                name: "one test: open a scope, register \(Self.requestsPerTest) stubs, make \(Self.requestsPerTest) requests to them, end the scope (per request)",
                goals: ComparisonGoals(cpu: .ratioAtMost(1.10), contextSwitches: .differenceAtMost(0.1)),
                baseline: {
                    let first = testRotation.baselineStart(advancingBy: tests)
                    return await outside.run { await Self.baselineTests(testPool, from: first, count: tests, body: baselineBody) }
                },
                variant: {
                    let first = testRotation.variantStart(advancingBy: tests)
                    return await outside.run { await Self.stubbedTests(testPool, from: first, count: tests, body: testBody) }
                }
            ),
            PairedCase(
                name: "one test on the main actor (a `@MainActor` test): the same, each batch's tests run isolated to the main actor (per request)",
                goals: ComparisonGoals(cpu: .ratioAtMost(1.10), contextSwitches: .differenceAtMost(0.1)),
                baseline: {
                    let first = testRotation.baselineStart(advancingBy: tests)
                    return await Task { @MainActor in await Self.baselineTests(testPool, from: first, count: tests, body: baselineBody) }.value
                },
                variant: {
                    let first = testRotation.variantStart(advancingBy: tests)
                    return await Task { @MainActor in await Self.stubbedTests(testPool, from: first, count: tests, body: testBody) }.value
                }
            ),
            PairedCase(RequestComparison(
                name: "unmatched request: URLError with the near-miss report",
                worker: unmatched,
                baseline: ([missing], .failure),
                variant: ([missing], .failure),
                requestsPerBatch: batch,
                goals: ComparisonGoals(wall: .ratioAtMost(1.5), cpu: .ratioAtMost(1.5))
            )),
            PairedCase(RequestComparison(
                name: "template row, split: the dictionary protocol also resolving each request in a URLStubs scope first (as startLoading() does, through a benchmarking hook), against the plain dictionary protocol",
                worker: outside,
                baseline: (items, .body(baselineBody)),
                variant: (items, .body(baselineBody)),
                variantSession: Self.resolvingSession,
                requestsPerBatch: batch
            )),
            PairedCase(RequestComparison(
                name: "template row, split: URLStubs' template row against that resolving dictionary protocol (what StubURLProtocol adds beyond its resolution)",
                worker: template,
                baseline: (items, .body(baselineBody)),
                variant: (items, .body(templateBody)),
                baselineSession: Self.resolvingSession,
                requestsPerBatch: batch
            )),
        ] + Self.references.map { busy, session in
            PairedCase(RequestComparison(
                name: "reference, not URLStubs: the dictionary protocol doing \(busy.extraMicroseconds) µs more CPU work in startLoading(), a different URL every request",
                worker: outside,
                baseline: (items, .body(baselineBody)),
                variant: (items, .body(baselineBody)),
                variantSession: session,
                requestsPerBatch: batch
            ))
        }
        let comparisons = await PairedCase.measure(cases, pairs: pairs, warmUpPairs: warmUpPairs, label: "shapes")
        HandlerMockURLProtocol.setHandler(nil)

        let breakdown = await TestCostBreakdown(pairs: breakdownPairs, warmUpPairs: warmUpPairs, testsPerBatch: tests).run(pool: testPool, body: testBody, on: outside)

        var emptySamples: [BatchSample] = []
        var mainActorEmptySamples: [BatchSample] = []
        var traitSamples: [BatchSample] = []
        for round in 0...emptyScopes.samples {
            Progress.log("shapes: empty scopes \(round)/\(emptyScopes.samples)")
            let count = emptyScopes.perSample
            let sample = await outside.run { await Self.emptyScopes(count) }
            let mainActorSample = await Task { @MainActor in await Self.emptyScopes(count) }.value
            let traitSample = TraitScopes.isMeasured ? await outside.run { await TraitScopes.measure(count) } : nil
            if round > 0 { // The first warms up.
                emptySamples.append(sample)
                mainActorEmptySamples.append(mainActorSample)
                if let traitSample {
                    traitSamples.append(traitSample)
                }
            }
        }

        let resolutionRows = await ResolutionCacheBenchmark(quick: quick).run()
        let setupRows = await TestSetupCacheBenchmark(quick: quick).run(pool: testPool, body: testBody, on: outside)

        let unmatchedReports = await unmatched.finish()
        ResolvingMockURLProtocol.scope.withLock { $0 = nil }
        let unresolved = ResolvingMockURLProtocol.unresolved.withLock { $0 }
        for worker in [computed, awaiting, template, resolving, outside] {
            await worker.finish()
        }
        let rows = [
            ReportRow.samples("empty `withStubScope { _ in }`, wall time per scope", unit: "µs", emptySamples.map(\.wallPerRequest), isReference: false),
            ReportRow.samples("empty `withStubScope { _ in }`, CPU time per scope", unit: "µs", emptySamples.map(\.cpuPerRequest), isReference: false),
            ReportRow.samples("the same on the main actor, CPU time per scope", unit: "µs", mainActorEmptySamples.map(\.cpuPerRequest), isReference: false),
            ReportRow.samples("the same on the main actor, context switches per scope", unit: "switches", mainActorEmptySamples.map(\.contextSwitchesPerRequest), isReference: false, goal: .valueAtMost(0.1, "≤ 0.10 switches")),
        ] + traitRows(traitSamples) + breakdown.rows + resolutionRows + setupRows
        let failedScopes = (emptySamples + mainActorEmptySamples + traitSamples).reduce(0) { $0 + $1.unexpected }
        return section(comparisons, rows: rows, unmatchedReports: unmatchedReports, unresolved: unresolved, failedScopes: failedScopes, failedBreakdown: breakdown.unexpected)
    }

    /// Registers the computed row's stub in `scope`: a closure, without `await`,
    /// that answers `/users/{id}` with `body` and the `id` it captured in a header.
    static func stubComputed(in scope: StubScope, answering body: Data) async {
        await scope.stub(.get(BenchmarkFixtures.origin + "/users/{id}")) { request in
            .data(body, headers: ["X-User-ID": request.pathParameters["id"] ?? ""])
        }
    }

    /// The hand-rolled side of the computed row: a handler that answers with
    /// `body` and the URL's last path component in a header.
    static func computedHandler(answering body: Data) -> HandlerMockURLProtocol.Handler {
        { request in
            let url = request.url!
            let headers = ["Content-Length": String(body.count), "X-User-ID": url.lastPathComponent]
            return (HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)!, body)
        }
    }

    /// The URL of user `index`, answered by the computed stub.
    static func userURL(_ index: Int) -> URL {
        URL(string: BenchmarkFixtures.origin + "/users/\(index)")!
    }

    /// The URL of request `request` of test `test`.
    static func testURL(test: Int, request: Int) -> URL {
        URL(string: BenchmarkFixtures.origin + "/tests/\(test)/resource-\(request)")!
    }

    /// Runs `count` tests the hand-rolled way, from test `first` of `pool`: each
    /// sets a handler that answers its URLs from a table it builds, makes its
    /// requests, and clears the handler; isolated to the caller's actor, as a test
    /// is to its own.
    static func baselineTests(_ pool: [[URLRequest]], from first: Int, count: Int, body: Data, isolation: isolated (any Actor)? = #isolation) async -> BatchSample {
        var answers: [Data?] = []
        answers.reserveCapacity(count * requestsPerTest)
        let meter = BatchMeter()
        for test in 0..<count {
            let requests = pool[(first + test) % pool.count]
            HandlerMockURLProtocol.setHandler(answering: requests, with: body)
            for request in requests {
                answers.append(await RequestTimer.answer(request, through: HandlerMockURLProtocol.session, style: .async))
            }
            HandlerMockURLProtocol.setHandler(nil)
        }
        var sample = meter.stop(requests: count * requestsPerTest, requestMicroseconds: [], unexpected: 0)
        sample.unexpected = answers.count(where: { $0 != body })
        return sample
    }

    /// Runs `count` tests with URLStubs, from test `first` of `pool`: each opens a
    /// scope, registers a stub per URL, makes its requests, and ends the scope;
    /// isolated to the caller's actor, as a test is to its own.
    ///
    /// With `extras`, each test also registers the stubs `extras` lists for it
    /// (URLs no request asks for) and opens and ends an empty scope nested in its
    /// own, as given: what ``TestCostBreakdown`` adds to measure each part.
    static func stubbedTests(
        _ pool: [[URLRequest]],
        from first: Int,
        count: Int,
        body: Data,
        extras: TestExtras = .none,
        isolation: isolated (any Actor)? = #isolation
    ) async -> BatchSample {
        var answers: [Data?] = []
        answers.reserveCapacity(count * requestsPerTest)
        var failedScopes = 0
        let meter = BatchMeter()
        for test in 0..<count {
            let requests = pool[(first + test) % pool.count]
            do {
                try await withStubScope { scope in
                    // Captured, so that the closure is isolated to the caller's actor,
                    // as a test's own closure is: a closure is isolated to an
                    // `isolated` parameter only when it captures it.
                    _ = isolation
                    if extras.nestedScope {
                        try await withStubScope { _ in _ = isolation }
                    }
                    for request in requests {
                        await scope.stub(.get(request.url!.absoluteString), with: .data(body))
                    }
                    if let stubURLs = extras.stubURLs {
                        for url in stubURLs[(first + test) % stubURLs.count] {
                            await scope.stub(.get(url), with: .data(body))
                        }
                    }
                    // Into the batch's array, as the baseline's tests do: an array per
                    // test, returned and joined, would be work of this side alone.
                    for request in requests {
                        answers.append(await RequestTimer.answer(request, through: BenchmarkFixtures.stubbedSession, style: .async))
                    }
                }
            } catch {
                failedScopes += 1
            }
        }
        var sample = meter.stop(requests: count * requestsPerTest, requestMicroseconds: [], unexpected: 0)
        sample.unexpected = answers.count(where: { $0 != body }) + failedScopes * requestsPerTest
        return sample
    }

    /// Opens and ends `count` empty scopes, isolated to the caller's actor; one
    /// "request" per scope.
    static func emptyScopes(_ count: Int, isolation: isolated (any Actor)? = #isolation) async -> BatchSample {
        var failed = 0
        let meter = BatchMeter()
        for _ in 0..<count {
            do {
                try await withStubScope { _ in _ = isolation } // Isolated to the caller's actor, as in stubbedTests.
            } catch {
                failed += 1
            }
        }
        return meter.stop(requests: count, requestMicroseconds: [], unexpected: failed)
    }

    /// The rows of the `.stubbed` trait's cost per test, where it is measured.
    private func traitRows(_ samples: [BatchSample]) -> [ReportRow] {
        guard !samples.isEmpty else { return [] }
        return [
            ReportRow.samples("the `.stubbed` trait around an empty test (its provideScope), CPU time per test", unit: "µs", samples.map(\.cpuPerRequest), isReference: false),
        ]
    }

    /// Builds the report section.
    private func section(_ comparisons: [Comparison], rows: [ReportRow], unmatchedReports: Int, unresolved: Int, failedScopes: Int, failedBreakdown: Int) -> ReportSection {
        let batch = Format.number(Double(requestsPerBatch), digits: 0)
        var notes = [
            "Which row is your suite: tests whose stubs compute answers from the request (`stub(...) { request in ... }`) read the computed row; tests that stub URL templates with fixed bodies read the template row (the delegated row when their session has a delegate); the one-test row is the whole cost per request of a typical short test (scope, a few stubs, a few requests); the unmatched row is what a request no stub matches costs (its URLError carries the near-miss report).",
            "Method: as in the interception section: batches of \(batch) requests alternate the hand-rolled protocol's session (B) and URLStubs' session (V) as B V V B ...; \(warmUpPairs) warm-up pair(s) per comparison are discarded; CPU time is the whole process's and context switches are getrusage's over the batch, divided by its requests; paired figures are medians over pairs.",
            "Baselines: the computed and one-test rows use a blog-post MockURLProtocol with a static request handler (behind a lock), called per request in startLoading(), which builds the HTTPURLResponse and returns the body; the template and unmatched rows use the static-dictionary protocol of the interception section.",
            "Computed row: the stub `.get(\"…/users/{id}\") { request in .data(body, headers: [\"X-User-ID\": request.pathParameters[\"id\"]]) }` (a closure without await: answered inline); the baseline's handler reads the URL's last path component into the same header. Every request of a batch asks for another user.",
            "Awaiting row: the computed row's stub with `await Task.yield()` first in its closure, which makes it the asynchronous form: each request is answered from a task of its own, its client calls sent back to the task's work queue (Linux) or client thread (Apple platforms); the baseline is the computed row's, answering at once, as a hand-rolled protocol does. Reported without a goal: it shows what a closure that awaits costs.",
            "Delegated row: the template row's stub and requests, each side's session made with a session delegate that implements nothing (`URLSession(configuration:delegate:delegateQueue:)`), as apps' sessions often have one for authentication or metrics: on Linux, URLStubs then tells a task's own delegate from the session's for every request.",
            "Main-actor one-test row: the same tests, each batch run by a task on the main actor, so that every test's closure is isolated to it, as a `@MainActor` test's is (common in app test suites); both sides make their requests with `data(for:)`, which leaves the actor and comes back. The main-actor empty-scope rows do the same with empty scopes: a scope that left the actor would show two context switches each.",
            "One-test row: each test (\(Self.requestsPerTest) requests, so \(requestsPerBatch / Self.requestsPerTest) tests per batch) uses URLs of its own. URLStubs: `withStubScope { scope in ... }` registering `.get(url) with: .data(body)` per URL, then the requests, then the scope's end (verification included). Baseline: build a 5-entry table, set the handler, make the requests, clear the handler.",
            "Reference rows: both sides are the hand-rolled dictionary protocol, one of them first doing \(Self.references.map { "\($0.0.extraMicroseconds) µs" }.joined(separator: " (then ") + ")") of work in user code in startLoading() (multiply-add steps, \(Format.number(Double(UserSpaceWork.stepsPerMicrosecond), digits: 0)) per µs as timed by the thread's CPU clock at the start, with no system call while it runs); they show what a known cost per request, spent where URLStubs spends its own, reads as in these paired ratios on this machine, and so how much work a ratio goal leaves room for. That work touches no memory: the template request's resolution alone (its rows below) costs about the first when timed warm, yet reads far higher inside URL loading (the split rows), nearer to what it costs with caches emptied.",
            "Split rows: the template row in two parts, each paired on its own. The reference protocol is the dictionary protocol that first resolves each request in a URLStubs scope holding the template row's stub, as startLoading() does (recorded, matched, a use taken, its answer written down: `resolveWithoutLoading`, a hook for this benchmark), then answers from its table. Against the plain dictionary protocol it reads as URLStubs' resolution inside URL loading; URLStubs' template row against it reads as the rest of StubURLProtocol (the scope read where the task is resumed, on Linux the task's kind and delegate checked, the delivery, the answer built from the stub, the task's state read before the client calls) beyond what the dictionary protocol does itself (its table lookups and the response it builds). The two ratios should multiply to about the template row's. Both scopes stay open for the whole comparison, so their logs grow far longer than a test's: on both sides of the second row, on one side of the first.",
            "Resolution rows: the template row's stub, each request resolved as startLoading() resolves it (recorded, matched, a use taken, its answer written down) but without URL loading or building the response, on one thread, by that thread's CPU clock; median over \(ResolutionCacheBenchmark(quick: quick).rounds) rounds of \(ResolutionCacheBenchmark(quick: quick).requestsPerBatch) requests. Warm: resolutions back to back. Caches emptied: each resolution after touching one byte per cache line of \(CacheEvictingMemory.byteCount >> 20) MiB, less the same touching alone (paired, alternating order). In a test, Foundation's own work on each request comes between two resolutions, so a resolution there runs with caches between the two; the reference rows say what a microsecond in startLoading() reads as. Unmatched: the unmatched row's request resolved the same way, warm, in a scope whose one stub it does not match: recorded, compared, its near misses found and written into the failure's message, the problem noted for the scope's end, its URLError built.",
            "Setup rows: the one-test row's setup and end without its requests, each test timed on its own by the thread's CPU clock: URLStubs' `withStubScope { scope in ... }` registering the test's \(Self.requestsPerTest) stubs, against the hand-rolled handler over a table of the same URLs, set and cleared; with warm caches (test after test, nothing else between), and with \(CacheEvictingMemory.byteCount >> 20) MiB of other memory touched before each test, outside the timed part (caches emptied: what a suite's other work between tests does, at its most). Each figure is the median over rounds of a round's median test; a round measures both sides at both temperatures, the sides' order alternating, and the difference rows are the median of each round's URLStubs figure minus its hand-rolled one.",
            "In-a-test rows: where the one-test row's cost goes. Each is the paired difference (B V V B, \(breakdownPairs) pairs after \(warmUpPairs) warm-up) between the one test as above and the same test with a part added, both URLStubs, per test, divided by the parts added: \(TestCostBreakdown.extraStubs) more stubs `.get(url) with: .data(body)` for URLs no request asks for (so that matching and answers stay the same, and the scope holds \(Self.requestsPerTest + TestCostBreakdown.extraStubs) stubs, compared one by one), registered after the test's own, so that every request passes them first, each skipped by one comparison of its route: the cheapest kind of stub, in its dearest place; or an empty `withStubScope { _ in }` opened and ended inside the test's scope. Unlike the empty-scope rows below, these run between Foundation's work on each request, as a test's stubs and scopes do; the difference between the two says what that costs.",
            "Empty scope rows: `try await withStubScope { _ in }` in a loop of \(Format.number(Double(emptyScopes.perSample), digits: 0)) on a task outside any scope (the main-actor rows: on a task isolated to the main actor), per scope; median over \(emptyScopes.samples) samples after one warm-up. " + (TraitScopes.isMeasured
                ? "Trait row: the `.stubbed` trait's provideScope(for:testCase:performing:) called directly around an empty test, in the same loops, alternating with the empty scopes: the trait's own work per test case (its scope, the options it merges, the task-locals it binds); what Swift Testing does to find and call a test's traits is not included."
                : "The `.stubbed` trait is measured on Linux only (with Swift 6.3 or later), where Swift Testing is a library any target may link."),
        ]
        let unexpected = comparisons.filter { $0.unexpected != 0 }
        if unexpected.isEmpty {
            notes.append("Every measured request ended as expected (the right body, or an error for the unmatched row).")
        } else {
            notes.append("UNEXPECTED answers (wrong body or error): " + unexpected.map { "\($0.name): \($0.unexpected)" }.joined(separator: ", "))
        }
        if failedScopes != 0 {
            notes.append("UNEXPECTED: \(failedScopes) of the measured empty scopes and trait runs threw.")
        }
        if failedBreakdown != 0 {
            notes.append("UNEXPECTED: \(failedBreakdown) requests of the in-a-test rows, warm-up included, did not get their body (5 counted for each test whose scope threw).")
        }
        if unresolved != 0 {
            notes.append("UNEXPECTED: the split rows' resolving protocol found no stub for \(unresolved) requests.")
        }
        notes.append("The unmatched comparison's scope reported \(Format.number(Double(unmatchedReports), digits: 0)) problems when it ended (one per unmatched URLStubs request, warm-up included).")
        return ReportSection(
            name: MeasurementKind.shapes.rawValue,
            title: "Suite shapes: computed stubs (inline and awaiting), template stubs (and through sessions with a delegate), a whole test, unmatched requests; per request",
            baseline: "hand-rolled MockURLProtocol answering synchronously in startLoading, same task, paired",
            comparisons: comparisons,
            rows: rows,
            notes: notes
        )
    }
}
