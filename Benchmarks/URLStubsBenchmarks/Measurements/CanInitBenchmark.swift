#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Measures `canInit(with:)`: the hook Foundation calls synchronously inside
/// `resume()`, under a process-wide lock, for every request of a stubbed session.
///
/// Each sample is one batch of calls, timed as a whole and divided by its length.
/// The calls go through the class object, as Foundation makes them, and every
/// result is counted and checked, so the optimiser cannot drop them. URLStubs is
/// measured in three scopes holding 0, 100 and 10,000 stubs, while 0, 99 and 999
/// other scopes are parked open; the baselines are measured on a task outside any
/// scope. Within a round the variants alternate batch by batch.
struct CanInitBenchmark {
    /// Which protocol class a batch calls.
    enum Subject: Sendable {
        /// The blog-post protocol whose `canInit` returns `true`.
        case alwaysTrue
        /// The blog-post protocol that looks the URL up in a static dictionary.
        case dictionary
        /// URLStubs' protocol.
        case urlStubs

        /// The class whose `canInit` is called, typed as Foundation sees it.
        var protocolClass: URLProtocol.Type {
            switch self {
            case .alwaysTrue: AlwaysTrueMockURLProtocol.self
            case .dictionary: DictionaryMockURLProtocol.self
            case .urlStubs: StubURLProtocol.self
            }
        }
    }

    /// What one batch measured.
    struct Batch: Sendable {
        /// The batch's time divided by its number of calls.
        var nanosecondsPerCall: Double
        /// How many calls returned `true` (the blackhole that keeps them alive).
        var accepted: Int
    }

    /// The stub counts of URLStubs' measuring scopes.
    static let stubCounts = [0, 100, 10_000]
    /// The numbers of live scopes, counting the measuring scope.
    static let scopeCounts = [1, 100, 1_000]
    /// The goal for URLStubs' median per call.
    static let medianGoal = Goal.valueAtMost(20, "≤ 20 ns")
    /// The goal for slowest median / fastest median among URLStubs' configurations.
    static let flatnessGoal = Goal.valueAtMost(1.25, "≤ 1.25x")

    /// Whether this is the smoke run.
    let quick: Bool

    /// Calls per timed batch.
    var callsPerBatch: Int { 10_000 }
    /// Rounds over every scope count.
    var rounds: Int { quick ? 2 : 40 }
    /// Batches of each variant per scope count and round.
    var batchesPerTurn: Int { quick ? 2 : 8 }

    /// Runs the measurement and returns its section of the report.
    func run() async -> ReportSection {
        let request = BenchmarkFixtures.request(BenchmarkFixtures.itemURL(500))
        let body = BenchmarkFixtures.body(tag: "canInit")
        let outside = await ScopedWorker.unscoped()
        var scoped: [ScopedWorker] = []
        for count in Self.stubCounts {
            Progress.log("canInit: registering \(count) stubs")
            scoped.append(await ScopedWorker.scoped { scope in
                for index in 0..<count {
                    await scope.stub(.get(BenchmarkFixtures.itemURL(index).absoluteString), with: .data(body))
                }
            })
        }
        let calls = callsPerBatch
        /// Times one batch of `subject`'s canInit on `worker`'s task.
        func measure(_ subject: Subject, on worker: ScopedWorker) async -> Batch {
            await worker.run { Self.timeBatch(subject.protocolClass, request, calls: calls) }
        }

        var alwaysTrue: [Double] = []
        var dictionary: [Double] = []
        var grid = Array(repeating: Array(repeating: [Double](), count: Self.scopeCounts.count), count: Self.stubCounts.count)
        var rejected = 0
        var parked = ParkedScopes()
        // Warm-up: one batch of each, discarded.
        _ = await measure(.alwaysTrue, on: outside)
        _ = await measure(.dictionary, on: outside)
        for worker in scoped {
            _ = await measure(.urlStubs, on: worker)
        }
        for round in 1...rounds {
            Progress.log("canInit: round \(round)/\(rounds)")
            for (level, scopeCount) in Self.scopeCounts.enumerated() {
                await parked.grow(to: scopeCount - 1)
                // A discarded batch of each absorbs the work opening scopes leaves behind.
                _ = await measure(.alwaysTrue, on: outside)
                for worker in scoped {
                    _ = await measure(.urlStubs, on: worker)
                }
                for _ in 0..<batchesPerTurn {
                    let trueBatch = await measure(.alwaysTrue, on: outside)
                    alwaysTrue.append(trueBatch.nanosecondsPerCall)
                    rejected += calls - trueBatch.accepted
                    let dictionaryBatch = await measure(.dictionary, on: outside)
                    dictionary.append(dictionaryBatch.nanosecondsPerCall)
                    rejected += calls - dictionaryBatch.accepted
                    for (stubs, worker) in scoped.enumerated() {
                        let batch = await measure(.urlStubs, on: worker)
                        grid[stubs][level].append(batch.nanosecondsPerCall)
                        rejected += calls - batch.accepted
                    }
                }
            }
            await parked.closeAll()
        }
        await outside.finish()
        for worker in scoped {
            await worker.finish()
        }
        return section(alwaysTrue: alwaysTrue, dictionary: dictionary, grid: grid, rejected: rejected)
    }

    /// Builds the report section from the samples.
    private func section(alwaysTrue: [Double], dictionary: [Double], grid: [[[Double]]], rejected: Int) -> ReportSection {
        let trueRow = ReportRow.samples("blog MockURLProtocol: canInit returns true", unit: "ns", alwaysTrue)
        var rows = [
            trueRow,
            ReportRow.samples("blog MockURLProtocol: static-dictionary lookup", unit: "ns", dictionary, baseline: trueRow),
        ]
        var medians: [Double] = []
        for (stubIndex, stubs) in Self.stubCounts.enumerated() {
            for (scopeIndex, scopes) in Self.scopeCounts.enumerated() {
                let name = "URLStubs: \(Format.number(Double(stubs), digits: 0)) stubs, \(Format.number(Double(scopes), digits: 0)) live scope\(scopes == 1 ? "" : "s")"
                let row = ReportRow.samples(name, unit: "ns", grid[stubIndex][scopeIndex], baseline: trueRow, goal: Self.medianGoal)
                rows.append(row)
                row.figure.map { medians.append($0) }
            }
        }
        if let slowest = medians.max(), let fastest = medians.min(), fastest > 0 {
            rows.append(.single("URLStubs flatness: slowest / fastest of the 9", unit: "x", slowest / fastest, goal: Self.flatnessGoal))
        }
        var notes = [
            "Each sample is a batch of \(Format.number(Double(callsPerBatch), digits: 0)) calls through the class object (URLProtocol.Type), divided by \(Format.number(Double(callsPerBatch), digits: 0)); vs baseline = ratio to \"canInit returns true\".",
            "URLStubs is measured inside scopes holding 0, 100 and 10,000 stubs; \"live scopes\" counts the measuring scope plus the other scopes parked open (each with 3 stubs, one for the same host). The three measuring scopes stay open throughout.",
            "Within a round, at each count of live scopes, the two baselines and the three URLStubs scopes take turns batch by batch, after one discarded batch of each; flatness = the slowest of URLStubs' nine medians / the fastest.",
        ]
        if rejected != 0 {
            notes.append("UNEXPECTED: \(rejected) canInit calls returned false.")
        }
        return ReportSection(
            name: MeasurementKind.canInit.rawValue,
            title: "canInit cost (ns per call)",
            baseline: "blog-style MockURLProtocols in this target: canInit returning true, and one looking the URL up in a dictionary",
            rows: rows,
            notes: notes
        )
    }

    /// Calls `protocolClass.canInit(with:)` `calls` times and returns the time per
    /// call and how many calls returned `true`.
    @inline(never)
    static func timeBatch(_ protocolClass: URLProtocol.Type, _ request: URLRequest, calls: Int) -> Batch {
        var accepted = 0
        let start = Stopwatch.now()
        for _ in 0..<calls where protocolClass.canInit(with: request) {
            accepted &+= 1
        }
        let elapsed = Stopwatch.nanoseconds(since: start)
        return Batch(nanosecondsPerCall: elapsed / Double(calls), accepted: accepted)
    }
}
