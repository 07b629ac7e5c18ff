#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// `scope.injectFaults`: a seeded share of requests fails, the same way in every
/// run with the same seed, however the requests interleave.
@Suite(
    "Seeded faults",
    .timeLimit(.minutes(1)),
    .enabled(if: seedsAreChosenByTests, "URLSTUBS_SEED overrides the seeds these tests choose")
)
struct SeededFaultTests {
    /// The outcomes of 20 requests (16 different ones made at once, then 4 identical
    /// ones in a row) in each of 64 scopes running in parallel, scope `i` seeded with `i`.
    private func outcomesOf64ParallelScopes() async throws -> [[String]] {
        try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for index in 0..<64 {
                group.addTask {
                    try await withStubScope("seed \(index)") { scope in
                        await scope.stub(.get("https://faults.example.com/**"), with: .text("ok"))
                        await scope.injectFaults(rate: 0.5, seed: UInt64(index))
                        let concurrent = await withTaskGroup(of: (Int, String).self) { requests in
                            for item in 0..<16 {
                                requests.addTask { (item, await outcome(of: "https://faults.example.com/items/\(item)?page=2&sort=name")) }
                            }
                            return await requests.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
                        }
                        var outcomes = (0..<16).map { concurrent[$0] ?? "missing" }
                        for _ in 0..<4 {
                            outcomes.append(await outcome(of: "https://faults.example.com/poll"))
                        }
                        return (index, outcomes)
                    }
                }
            }
            let byIndex = try await group.reduce(into: [Int: [String]]()) { $0[$1.0] = $1.1 }
            return (0..<64).map { byIndex[$0] ?? [] }
        }
    }

    @Test("the same seed gives the same outcomes twice in 64 parallel scopes, each making the same 20 requests, 16 of them at once; different seeds give different outcomes")
    func sameSeedSameOutcomes() async throws {
        let first = try await outcomesOf64ParallelScopes()
        let second = try await outcomesOf64ParallelScopes()
        #expect(first.map(\.count) == Array(repeating: 20, count: 64))
        #expect(first == second)
        #expect(Set(first).count == 64)
        let faulted = first.joined().filter { $0 != "200" }.count
        #expect((448...832).contains(faulted)) // 1,280 requests at a rate of 0.5
        #expect(Set(first.joined()) == ["200", "503", "429 Retry-After 1", "URLError \(URLError.Code.timedOut.rawValue)", "URLError \(URLError.Code.networkConnectionLost.rawValue)"])
    }

    @Test("the share of faulted requests over 1,000 requests is within 0.04 of the rate", arguments: [0.05, 0.3, 0.9])
    func shareOfFaults(rate: Double) async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://faults.example.com/**"), with: .status(200))
            await scope.injectFaults(rate: rate, faults: [.serviceUnavailable], seed: 2024)
            var failed = 0
            for item in 0..<1_000 {
                let (_, response) = try await scope.data(from: URL(string: "https://faults.example.com/items/\(item)")!)
                if HTTPURLResponse.status(of: response) == 503 {
                    failed += 1
                }
            }
            #expect(abs(Double(failed) / 1_000 - rate) <= 0.04)
            let logged = await scope.exchanges.filter {
                if case .response(503, _, _) = $0.outcome { return $0.source == .none }
                return false
            }
            #expect(logged.count == failed)
        }
    }

    @Test("with the same seed, every request a rate fails is failed at any higher rate")
    func higherRatesFailASuperset() async throws {
        func failedItems(rate: Double) async throws -> Set<Int> {
            try await withStubScope { scope in
                await scope.stub(.get("https://faults.example.com/**"), with: .status(200))
                await scope.injectFaults(rate: rate, faults: [.serviceUnavailable], seed: 99)
                var failed: Set<Int> = []
                for item in 0..<300 where HTTPURLResponse.status(of: try await scope.data(from: URL(string: "https://faults.example.com/items/\(item)")!).1) == 503 {
                    failed.insert(item)
                }
                return failed
            }
        }
        let low = try await failedItems(rate: 0.2)
        let high = try await failedItems(rate: 0.6)
        #expect(!low.isEmpty)
        #expect(low.isSubset(of: high))
        #expect(high.count > low.count)
    }

    @Test("the n-th identical request gets the same decision whatever other requests come between, and query items in another order make the same request")
    func identicalRequestsAreCounted() async throws {
        func pollOutcomes(query: String, interleaving: Bool) async throws -> [String] {
            try await withStubScope { scope in
                await scope.stub(.get("https://faults.example.com/**"), with: .status(200))
                await scope.injectFaults(rate: 0.5, faults: [.serviceUnavailable, .timedOut], seed: 5)
                var outcomes: [String] = []
                for round in 0..<12 {
                    if interleaving {
                        _ = await outcome(of: "https://faults.example.com/other/\(round)")
                        _ = await outcome(of: "https://faults.example.com/poll?a=1") // Another URL, counted apart.
                    }
                    outcomes.append(await outcome(of: "https://faults.example.com/poll?\(query)"))
                }
                return outcomes
            }
        }
        let alone = try await pollOutcomes(query: "a=1&b=2", interleaving: false)
        #expect(Set(alone).count > 1)
        #expect(try await pollOutcomes(query: "b=2&a=1", interleaving: false) == alone)
        #expect(try await pollOutcomes(query: "a=1&b=2", interleaving: true) == alone)
    }

    @Test("a 429 fault carries Retry-After in whole seconds, rounded up", arguments: [
        (StubFault.tooManyRequests(), "429 Retry-After 1"),
        (.tooManyRequests(retryAfter: .milliseconds(1_500)), "429 Retry-After 2"),
        (.tooManyRequests(retryAfter: .seconds(30)), "429 Retry-After 30"),
        (.tooManyRequests(retryAfter: .zero), "429 Retry-After 0"),
    ])
    func tooManyRequests(fault: StubFault, expected: String) async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://faults.example.com/limited"), with: .text("ok"))
            await scope.injectFaults(rate: 1, faults: [fault])
            #expect(await outcome(of: "https://faults.example.com/limited") == expected)
        }
    }

    @Test("an injected error is a URLError of the chosen code whose description names the request and the seed, logged with no source")
    func injectedError() async throws {
        try await withStubScope { scope in
            let stub = await scope.stub(.get("https://faults.example.com/x"), with: .text("ok"))
            await scope.injectFaults(rate: 1, faults: [.notConnectedToInternet], seed: 77)
            let error = await #expect(throws: URLError.self) {
                try await URLSession.stubbed.data(from: URL(string: "https://faults.example.com/x")!)
            }
            #expect(error?.code == .notConnectedToInternet)
            #expect(error?.localizedDescription == """
                URLStubs: GET https://faults.example.com/x failed with an injected fault, URLError.notConnectedToInternet.
                Faults seeded with 77 (replay with URLSTUBS_SEED=77).
                """)
            let exchanges = await scope.exchanges
            #expect(exchanges.count == 1)
            #expect(exchanges.first?.source == RecordedExchange.Source.none)
            guard case let .failure(logged)? = exchanges.first?.outcome else {
                Issue.record("expected a failure, got \(String(describing: exchanges.first))")
                return
            }
            #expect((logged as? URLError)?.code == .notConnectedToInternet)
            #expect(await stub.hitCount == 0)
        }
    }

    @Test("a faulted request takes no use of the stub: the retry after a fault gets the times: .once stub's answer and the first of a sequence")
    func faultsTakeNoUse() async throws {
        try await withStubScope { scope in
            let once = await scope.stub(.get("https://faults.example.com/once"), with: .text("the one answer"), times: .once)
            await scope.stub(.get("https://faults.example.com/pages"), with: .sequence([.text("page 1"), .text("page 2")]))
            await scope.injectFaults(rate: 1, faults: [.serviceUnavailable])
            #expect(await outcome(of: "https://faults.example.com/once") == "503")
            #expect(await outcome(of: "https://faults.example.com/pages") == "503")
            await scope.injectFaults(rate: 0) // The newest call decides: the retries go through.
            var retries: [String] = []
            for path in ["once", "pages", "pages"] {
                retries.append(try await getText("https://faults.example.com/\(path)"))
            }
            #expect(retries == ["the one answer", "page 1", "page 2"])
            #expect(await once.hitCount == 1)
            #expect(await scope.exchanges.map(\.description) == [
                "GET https://faults.example.com/once -> 503 (0 bytes)",
                "GET https://faults.example.com/pages -> 503 (0 bytes)",
                "GET https://faults.example.com/once -> 200 (14 bytes)",
                "GET https://faults.example.com/pages -> 200 (6 bytes)",
                "GET https://faults.example.com/pages -> 200 (6 bytes)",
            ])
        }
    }

    @Test("a faulted request never runs a computed stub's closure, and an answered one gets the latency on top of its own delay")
    func computedStubs() async throws {
        let calls = Shared(0)
        try await withStubScope { scope in
            await scope.stub(.get("https://faults.example.com/computed")) { _ in
                calls.value += 1
                return .text("computed").delayed(by: .milliseconds(5))
            }
            await scope.injectFaults(rate: 1, faults: [.timedOut])
            #expect(await outcome(of: "https://faults.example.com/computed") == "URLError \(URLError.Code.timedOut.rawValue)")
            #expect(calls.value == 0)
            await scope.injectLatency(.fixed(.milliseconds(20)))
            let clock = ContinuousClock()
            let start = clock.now
            let body = try await getText("https://faults.example.com/computed")
            #expect(clock.now - start >= .milliseconds(25))
            #expect(body == "computed")
            #expect(calls.value == 1)
        }
    }

    @Test("latency delays answered and faulted requests alike, and a pattern limits which requests are covered")
    func latencyAndPatterns() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://faults.example.com/**"), with: .text("ok"))
            await scope.injectFaults(.get("https://faults.example.com/slow/{id}"), rate: 0.5, faults: [.serviceUnavailable], latency: .fixed(.milliseconds(15)), seed: 3)
            let clock = ContinuousClock()
            var outcomes: Set<String> = []
            for id in 0..<6 {
                let start = clock.now
                outcomes.insert(await outcome(of: "https://faults.example.com/slow/\(id)"))
                #expect(clock.now - start >= .milliseconds(15))
            }
            #expect(outcomes == ["200", "503"])
            for id in 0..<20 {
                #expect(await outcome(of: "https://faults.example.com/fast/\(id)") == "200")
            }
        }
    }

    @Test("requests no stub answers fail as unmatched, not with a fault")
    func unmatchedRequestsAreNotFaulted() async throws {
        let messages = try await problemMessages { scope in
            await scope.injectFaults(rate: 1, faults: [.serviceUnavailable], seed: 8)
            #expect(await outcome(of: "https://faults.example.com/nothing") == "URLError \(URLError.Code.resourceUnavailable.rawValue)")
        }
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("URLStubs: no stub matches GET https://faults.example.com/nothing in scope #") == true)
    }
}
