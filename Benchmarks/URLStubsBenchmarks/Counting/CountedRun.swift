#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Shapes of the `shapes` section's comparisons run as plain requests, nothing
/// timed, for an instruction counter outside the process (a counted run):
/// `Benchmarks/count-instructions.sh` makes two counted runs of a shape under
/// Valgrind's cachegrind that differ only in their number of requests, and the
/// difference is what one request executes, free of the run-to-run noise of timings
/// (the setup, the same in both, cancels out).
///
/// Not timed, and run without the benchmark's workers, rotations and pairing: each
/// shape makes its requests one after another on one task, as a test does. What a
/// count includes beyond the requests themselves, per request: an element of the
/// array of requests, and in the `template` and `resolving` shapes an exchange more
/// in their one scope's log (released at its end), as in their timed rows; in the
/// `unmatched` shape, a problem more for its scope's end, which (unlike the timed
/// row's scope, kept open) ends inside the count and scrubs its report of the
/// secrets its exchanges carry, redacting each exchange. Every shape answers with
/// the same body (the unmatched shapes: an error), so an answer from the wrong
/// stub or scope would go unnoticed here; the timed rows check that.
enum CountedRun {
    /// A shape of requests, named as the script and `--counted` name it.
    enum Shape: String, CaseIterable, Sendable {
        /// The dictionary protocol, a different item URL each request: the
        /// baseline of the template row and of its split.
        case dictionary
        /// URLStubs, one template stub in one scope, a different item URL each
        /// request: the template row's variant.
        case template
        /// The dictionary protocol resolving each request in a URLStubs scope
        /// first: the split row's variant.
        case resolving
        /// The handler protocol answering each user URL from a handler that
        /// echoes its last path component: the computed row's baseline.
        case handlerComputed = "handler-computed"
        /// URLStubs, one computed stub (a closure without `await`) in one scope
        /// echoing the `id` it captured, a different user URL each request: the
        /// computed row's variant.
        case computed
        /// The handler protocol, per test: a handler for five URLs, five requests,
        /// the handler cleared: the one-test row's baseline.
        case handlerTests = "handler-tests"
        /// URLStubs, per test: a scope, five stubs, five requests, the scope's end:
        /// the one-test row's variant.
        case tests
        /// The dictionary protocol failing a URL its table answers with an error:
        /// the unmatched row's baseline.
        case dictionaryUnmatched = "dictionary-unmatched"
        /// URLStubs, one stub in one scope, a request it does not match, failed
        /// with the near-miss report: the unmatched row's variant.
        case unmatched
        /// URLStubs, 1,000 exact-URL stubs in one scope, a request none of them
        /// matches, failed with the near-miss report, which compares every stub
        /// (no baseline: what a near-miss report costs in a large scope).
        case unmatchedAmongMany = "unmatched-many"
        /// URLStubs, an empty `withStubScope { _ in }` per unit, no request: what
        /// a scope costs on its own (its baseline is nothing).
        case scopes
        /// URLStubs, per test: a scope and five exact-URL stubs, no request, the
        /// scope's end; per unit, one stub and a fifth of a scope: what registering
        /// a test's stubs costs (its baseline is nothing).
        case stubs

        /// Whether the shape makes its requests in tests of ``CountedRun/requestsPerTest``.
        var isPerTest: Bool {
            self == .handlerTests || self == .tests || self == .stubs
        }
    }

    /// Requests per test of the per-test shapes, as in the one-test row: their
    /// number of requests must be a multiple of it.
    static let requestsPerTest = SuiteShapesBenchmark.requestsPerTest

    /// Makes `requests` requests of `shape` (whole tests for the per-test shapes,
    /// which `BenchmarkOptions` checks) and returns how many were answered other
    /// than expected.
    static func run(_ shape: Shape, requests: Int) async -> Int {
        let body = BenchmarkFixtures.baselineBody
        // Made before any request, so that neither run's count of them changes the setup.
        _ = (itemRequests.count, userRequests.count, testPool.count, missingRequest)
        switch shape {
        case .dictionary:
            return await answer(items(requests), through: BenchmarkFixtures.baselineSession, expecting: body)
        case .template:
            let unexpected = try? await withStubScope { scope in
                await scope.stub(.get(BenchmarkFixtures.origin + "/items/{id}"), with: .data(body))
                return await answer(items(requests), through: BenchmarkFixtures.stubbedSession, expecting: body)
            }
            return unexpected ?? requests
        case .resolving:
            let unexpected = try? await withStubScope { scope in
                await scope.stub(.get(BenchmarkFixtures.origin + "/items/{id}"), with: .data(body))
                ResolvingMockURLProtocol.scope.withLock { $0 = scope }
                defer { ResolvingMockURLProtocol.scope.withLock { $0 = nil } }
                let session = BenchmarkFixtures.session(answeredBy: ResolvingMockURLProtocol.self)
                return await answer(items(requests), through: session, expecting: body)
                    + ResolvingMockURLProtocol.unresolved.withLock { $0 }
            }
            return unexpected ?? requests
        case .handlerComputed:
            HandlerMockURLProtocol.setHandler(SuiteShapesBenchmark.computedHandler(answering: body))
            defer { HandlerMockURLProtocol.setHandler(nil) }
            let unexpected = await answer(users(requests), through: HandlerMockURLProtocol.session, expecting: body)
            return await echoesID(through: HandlerMockURLProtocol.session) ? unexpected : unexpected + 1
        case .computed:
            let unexpected = try? await withStubScope { scope in
                await SuiteShapesBenchmark.stubComputed(in: scope, answering: body)
                let unexpected = await answer(users(requests), through: BenchmarkFixtures.stubbedSession, expecting: body)
                return await echoesID(through: BenchmarkFixtures.stubbedSession) ? unexpected : unexpected + 1
            }
            return unexpected ?? requests
        case .handlerTests:
            var unexpected = 0
            for test in 0..<(requests / requestsPerTest) {
                let requests = testRequests(test)
                HandlerMockURLProtocol.setHandler(answering: requests, with: body)
                unexpected += await answer(requests, through: HandlerMockURLProtocol.session, expecting: body)
                HandlerMockURLProtocol.setHandler(nil)
            }
            return unexpected
        case .dictionaryUnmatched:
            return await fail(missing(requests), through: BenchmarkFixtures.baselineSession)
        case .unmatched:
            // The scope's end throws its problems (one per request): expected here.
            var unexpected = requests
            _ = try? await withStubScope { scope in
                await scope.stub(.get(BenchmarkFixtures.singleURL.absoluteString), with: .data(body))
                unexpected = await fail(missing(requests), through: BenchmarkFixtures.stubbedSession)
            }
            return unexpected
        case .unmatchedAmongMany:
            var unexpected = requests
            _ = try? await withStubScope { scope in
                for request in itemRequests {
                    await scope.stub(.get(request.url!.absoluteString), with: .data(body))
                }
                unexpected = await fail(missing(requests), through: BenchmarkFixtures.stubbedSession)
                // Once per run, so that both counts include it: the stubs answer,
                // and the failure carries its near-miss report.
                if await answer([itemRequests[0]], through: BenchmarkFixtures.stubbedSession, expecting: body) > 0 {
                    unexpected += 1
                }
                if await !failsWithNearMisses(missingRequest) {
                    unexpected += 1
                }
            }
            return unexpected
        case .scopes:
            var unexpected = 0
            for _ in 0..<requests {
                if (try? await withStubScope { _ in true }) != true {
                    unexpected += 1
                }
            }
            return unexpected
        case .stubs:
            var unexpected = 0
            for test in 0..<(requests / requestsPerTest) {
                let requests = testRequests(test)
                // No request asks for the stubs, which expect none: the scope
                // ends without a problem, or its end throws (each counted).
                let registered = try? await withStubScope { scope in
                    for request in requests {
                        await scope.stub(.get(request.url!.absoluteString), with: .data(body))
                    }
                    return requests.count
                }
                unexpected += requestsPerTest - (registered ?? 0)
            }
            // Once per run, so that both counts include it: a test's stubs answer
            // (one test of the `tests` shape).
            return await run(.tests, requests: requestsPerTest) == 0 ? unexpected : unexpected + 1
        case .tests:
            var unexpected = 0
            for test in 0..<(requests / requestsPerTest) {
                let requests = testRequests(test)
                let answered = try? await withStubScope { scope in
                    for request in requests {
                        await scope.stub(.get(request.url!.absoluteString), with: .data(body))
                    }
                    return await answer(requests, through: BenchmarkFixtures.stubbedSession, expecting: body)
                }
                unexpected += answered ?? requestsPerTest
            }
            return unexpected
        }
    }

    /// The first `count` item requests, cycling through the dictionary protocol's
    /// table (each a different URL from the one before). The requests themselves
    /// are made once (``itemRequests``), whatever the count, so that they are setup
    /// the two runs share; the array holding them grows with the count.
    private static func items(_ count: Int) -> [URLRequest] {
        (0..<count).map { itemRequests[$0 % itemRequests.count] }
    }

    /// The first `count` user requests of the computed row, cycling as ``items(_:)`` does.
    private static func users(_ count: Int) -> [URLRequest] {
        (0..<count).map { userRequests[$0 % userRequests.count] }
    }

    /// The requests for the computed row's user URLs.
    private static let userRequests = (0..<1_000).map { BenchmarkFixtures.request(SuiteShapesBenchmark.userURL($0)) }

    /// The requests of the dictionary protocol's table of items.
    private static let itemRequests = (0..<1_000).map { BenchmarkFixtures.request(BenchmarkFixtures.itemURL($0)) }

    /// The requests of test `test`, URLs of its own as in the one-test row (a pool
    /// made once, and cycled through).
    private static func testRequests(_ test: Int) -> [URLRequest] {
        testPool[test % testPool.count]
    }

    /// `count` requests for the URL no stub and no table entry answers (the
    /// unmatched row's), one request made once.
    private static func missing(_ count: Int) -> [URLRequest] {
        Array(repeating: missingRequest, count: count)
    }

    /// The request of the unmatched row.
    private static let missingRequest = BenchmarkFixtures.request(BenchmarkFixtures.missingURL)

    /// The requests of 400 tests, each with URLs of its own.
    private static let testPool = (0..<400).map { test in
        (0..<requestsPerTest).map { BenchmarkFixtures.request(SuiteShapesBenchmark.testURL(test: test, request: $0)) }
    }

    /// Whether the computed row's answer to the first user URL echoes its `id`
    /// (`X-User-ID: 0`), as both sides of that row answer.
    private static func echoesID(through session: URLSession) async -> Bool {
        let response = try? await session.data(for: userRequests[0]).1
        return (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-User-ID") == "0"
    }

    /// Whether `request` fails with the near-miss report of an unmatched request.
    private static func failsWithNearMisses(_ request: URLRequest) async -> Bool {
        do {
            _ = try await BenchmarkFixtures.stubbedSession.data(for: request)
            return false
        } catch {
            return error.localizedDescription.contains("Nearest stubs:")
        }
    }

    /// Makes `requests` through `session` one after another and returns how many
    /// did not fail.
    private static func fail(_ requests: [URLRequest], through session: URLSession) async -> Int {
        var unexpected = 0
        for request in requests where await RequestTimer.answer(request, through: session, style: .async) != nil {
            unexpected += 1
        }
        return unexpected
    }

    /// Makes `requests` through `session` one after another and returns how many
    /// were not answered with `body`.
    private static func answer(_ requests: [URLRequest], through session: URLSession, expecting body: Data) async -> Int {
        var unexpected = 0
        for request in requests where await RequestTimer.answer(request, through: session, style: .async) != body {
            unexpected += 1
        }
        return unexpected
    }
}
