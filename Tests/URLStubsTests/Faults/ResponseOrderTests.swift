#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// A dashboard client with a planted bug: it asks for three resources at once and
/// takes the answers in the order they arrive, assuming that is the order it asked
/// in.
private struct DashboardClient {
    struct Dashboard: Equatable {
        var user: String
        var orders: String
        var news: String
    }

    static let base = "https://dashboard.example.com/"
    static let paths = ["user", "orders", "news"]

    /// Called each time an answer is taken, with how many were (for the test
    /// that releases them one at a time).
    var took: @Sendable (Int) -> Void = { _ in }

    /// The dashboard, and the paths in the order their answers arrived.
    func load() async throws -> (Dashboard, arrivals: [String]) {
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for path in Self.paths {
                group.addTask { try await getText(Self.base + path) }
            }
            var bodies: [String] = []
            for try await body in group {
                bodies.append(body)
                took(bodies.count)
            }
            return bodies
        }
        // The bug: the first answer to arrive is taken for the first request's.
        return (Dashboard(user: bodies[0], orders: bodies[1], news: bodies[2]), bodies.map { $0.replacingOccurrences(of: " body", with: "") })
    }
}

/// `scope.shuffleResponseOrder`: answers to concurrent requests arrive in a seeded
/// order, the same for the same seed.
@Suite(
    "Seeded response order",
    .timeLimit(.minutes(1)),
    .enabled(if: seedsAreChosenByTests, "URLSTUBS_SEED overrides the seeds these tests choose")
)
struct ResponseOrderTests {
    private static let spacing = Duration.milliseconds(10)
    private static let positions = 4

    /// Releases the answers a shuffle of `urls` holds on `clock` one position at a
    /// time, each step once the client took the answers of the steps before
    /// (`taken` counts them): on a manual clock every request arrives at the same
    /// instant, and no thread a loaded machine holds back can reorder the answers.
    /// (On a real clock, requests a thread's delay spreads over more than one
    /// spacing keep their positions only within each spacing: 40 ms was once too
    /// little for a CI run under load.)
    private static func release(_ urls: [String], seed: UInt64, positions: Int, spacing: Duration, on clock: ManualClock, taken: Shared<Int>) async throws {
        let held = urls.map { orderPosition(of: $0, seed: seed, positions: positions) }
        try await clock.waitForSleepers(atLeast: held.filter { $0 > 0 }.count, timeout: .seconds(20))
        for step in 0..<positions {
            if step > 0 {
                await clock.advance(by: spacing)
            }
            let expected = held.filter { $0 <= step }.count
            try await eventually(checkingEvery: .milliseconds(1), within: .seconds(20)) { taken.value >= expected }
            try #require(taken.value == expected, "after \(step) spacings, \(expected) answers were due and \(taken.value) taken")
        }
    }

    /// Loads the dashboard in a fresh scope whose response order is seeded with `seed`.
    private func loadDashboard(seed: UInt64) async throws -> (DashboardClient.Dashboard, arrivals: [String]) {
        let clock = ManualClock()
        return try await withStubScope(clock: clock) { scope in
            for path in DashboardClient.paths {
                await scope.stub(.get(DashboardClient.base + path), with: .text("\(path) body"))
            }
            await scope.shuffleResponseOrder(spacing: Self.spacing, positions: Self.positions, seed: seed)
            let taken = Shared(0)
            let load = Task { try await DashboardClient(took: { count in taken.value = count }).load() }
            try await Self.release(DashboardClient.paths.map { DashboardClient.base + $0 }, seed: seed, positions: Self.positions, spacing: Self.spacing, on: clock, taken: taken)
            return try await load.value
        }
    }

    /// The order the seed releases the dashboard's answers in, or `nil` when two
    /// share a position (they are then released in arrival order, which no seed fixes).
    private func predictedOrder(seed: UInt64) -> [String]? {
        let positions = DashboardClient.paths.map { orderPosition(of: DashboardClient.base + $0, seed: seed, positions: Self.positions) }
        guard Set(positions).count == positions.count else { return nil }
        return zip(DashboardClient.paths, positions).sorted { $0.1 < $1.1 }.map(\.0)
    }

    @Test("shuffling the response order finds a client that assumes answers arrive in request order, with some seed; the same seed gives the same order twice")
    func findsAnOrderDependence() async throws {
        let correct = DashboardClient.Dashboard(user: "user body", orders: "orders body", news: "news body")
        var found: (seed: UInt64, arrivals: [String])?
        for seed in UInt64(0)..<32 {
            guard let predicted = predictedOrder(seed: seed) else { continue }
            let (dashboard, arrivals) = try await loadDashboard(seed: seed)
            #expect(arrivals == predicted, "seed \(seed)")
            #expect((dashboard == correct) == (predicted == DashboardClient.paths), "seed \(seed)")
            if dashboard != correct {
                found = (seed, arrivals)
                break
            }
        }
        let (seed, arrivals) = try #require(found, "no seed of 0..<32 shook the order")
        #expect(arrivals != DashboardClient.paths)
        for _ in 0..<2 {
            let (dashboard, again) = try await loadDashboard(seed: seed)
            #expect(again == arrivals)
            #expect(dashboard != correct)
        }
    }

    @Test("by default a shuffle has 8 positions, 10 ms apart: a request given the last position is held exactly 70 ms, on the scope's clock")
    func defaults() async throws {
        let url = "https://order.example.com/last"
        let seed = try #require((UInt64(0)..<1_000).first { orderPosition(of: url, seed: $0, positions: 8) == 7 && orderPosition(of: url, seed: $0, positions: 16) != 7 })
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .text("held"))
            await scope.shuffleResponseOrder(seed: seed)
            let answer = Task { try await getText(url) }
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .milliseconds(69))
            #expect(clock.sleeperCount == 1)
            await clock.advance(by: .milliseconds(1))
            #expect(try await answer.value == "held")
            #expect(await scope.exchanges.first?.endedAt == .milliseconds(70))
        }
    }

    @Test("answers to requests made together are released in the order of their seeded positions, whatever order the requests were made in")
    func positionsDecideTheOrder() async throws {
        let paths = ["a", "b", "c", "d", "e"]
        @Sendable func url(_ path: String) -> String {
            "https://order.example.com/\(path)"
        }
        let positions = 16
        let seed = try #require((UInt64(0)..<100).first { seed in
            Set(paths.map { orderPosition(of: url($0), seed: seed, positions: positions) }).count == paths.count
        })
        let predicted = paths.sorted { orderPosition(of: url($0), seed: seed, positions: positions) < orderPosition(of: url($1), seed: seed, positions: positions) }
        for requestOrder in [paths, paths.reversed()] {
            let clock = ManualClock()
            let arrivals = try await withStubScope(clock: clock) { scope in
                await scope.stub(.get("https://order.example.com/{path}")) { .text($0.pathParameters["path"] ?? "") }
                await scope.shuffleResponseOrder(spacing: Self.spacing, positions: positions, seed: seed)
                let arrivals = Shared<[String]>([])
                let taken = Shared(0)
                let requests = Task {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for path in requestOrder {
                            group.addTask {
                                let text = try await getText(url(path))
                                var count = 0
                                arrivals.mutate {
                                    $0.append(text)
                                    count = $0.count
                                }
                                taken.mutate { $0 = max($0, count) }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                try await Self.release(paths.map(url), seed: seed, positions: positions, spacing: Self.spacing, on: clock, taken: taken)
                try await requests.value
                return arrivals.value
            }
            #expect(arrivals == predicted)
        }
    }

    @Test("different seeds give different orders, and every request takes every position under some seed")
    func seedsDiffer() {
        let urls = (0..<5).map { "https://order.example.com/\($0)" }
        var orders: Set<[Int]> = []
        var positionsTaken = Array(repeating: Set<Int>(), count: urls.count)
        for seed in UInt64(0)..<200 {
            let positions = urls.map { orderPosition(of: $0, seed: seed, positions: 8) }
            orders.insert(positions)
            for (index, position) in positions.enumerated() {
                positionsTaken[index].insert(position)
            }
        }
        #expect(orders.count > 150)
        #expect(positionsTaken.allSatisfy { $0 == Set(0..<8) })
    }
}
