#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Measures requests per second when 1, 8 or 64 scopes fire requests at once
/// through one shared stubbed session, and counts responses delivered to the
/// wrong scope.
///
/// Every scope stubs the same URL with a body unique to the scope and the round,
/// and checks every body it receives. Each sample is one burst: the same total of
/// requests split among the scopes, each scope making its share one after another,
/// timed from a common start (after every scope registered its stub) to the last
/// scope's last response. Rounds alternate 1, 8, 64 scopes; at each level a burst
/// of the hand-rolled protocol (tasks outside any scope) runs just before, for
/// reference.
struct ThroughputBenchmark {
    /// What one scope of a burst saw.
    struct Tally: Sendable {
        /// Responses whose body was another scope's.
        var misdelivered = 0
        /// Requests that failed or carried a body of no scope.
        var failed = 0
        /// When the scope's last request returned.
        var finishedAt: UInt64 = 0
    }

    /// What one burst measured.
    struct Burst: Sendable {
        /// Requests per second over the burst.
        var requestsPerSecond: Double
        /// Responses delivered to the wrong scope.
        var misdelivered: Int
        /// Requests that failed.
        var failed: Int
    }

    /// The numbers of concurrent scopes compared.
    static let scopeCounts = [1, 8, 64]

    /// Whether this is the smoke run.
    let quick: Bool

    /// Rounds over every scope count.
    var rounds: Int { quick ? 2 : 30 }
    /// Requests per burst, split evenly among the scopes.
    var requestsPerBurst: Int { quick ? 128 : 2_048 }

    /// Runs the measurement and returns its section of the report.
    func run() async -> ReportSection {
        var stubbed = Array(repeating: [Double](), count: Self.scopeCounts.count)
        var handRolled = Array(repeating: [Double](), count: Self.scopeCounts.count)
        var misdelivered = 0
        var failed = 0
        var requests = 0
        for round in 0...rounds {
            // Round 0 warms up and is discarded.
            Progress.log(round == 0 ? "throughput: warm-up" : "throughput: round \(round)/\(rounds)")
            for (index, scopes) in Self.scopeCounts.enumerated() {
                let baseline = await Self.baselineBurst(tasks: scopes, requestsEach: requestsPerBurst / scopes)
                let burst = await Self.burst(scopes: scopes, requestsEach: requestsPerBurst / scopes, round: round)
                misdelivered += burst.misdelivered
                failed += burst.failed + baseline.failed
                guard round > 0 else { continue }
                stubbed[index].append(burst.requestsPerSecond)
                handRolled[index].append(baseline.requestsPerSecond)
                requests += requestsPerBurst
            }
        }
        return section(stubbed: stubbed, handRolled: handRolled, misdelivered: misdelivered, failed: failed, requests: requests)
    }

    /// Builds the report section from the samples.
    private func section(stubbed: [[Double]], handRolled: [[Double]], misdelivered: Int, failed: Int, requests: Int) -> ReportSection {
        let single = ReportRow.samples("URLStubs: 1 scope", unit: "req/s", stubbed[0], higherIsBetter: true)
        var rows = [single]
        for (index, scopes) in Self.scopeCounts.enumerated().dropFirst() {
            let goal: Goal? = scopes == 64 ? .ratioAtLeast(0.9) : nil
            rows.append(.samples("URLStubs: \(scopes) concurrent scopes", unit: "req/s", stubbed[index], higherIsBetter: true, baseline: single, goal: goal))
        }
        rows.append(.single("responses delivered to the wrong scope", unit: "count", Double(misdelivered), goal: .valueAtMost(0, "= 0")))
        rows.append(.single("requests that failed", unit: "count", Double(failed), goal: .valueAtMost(0, "= 0")))
        let alone = ReportRow.samples("hand-rolled MockURLProtocol: 1 task", unit: "req/s", handRolled[0], higherIsBetter: true)
        rows.append(alone)
        for (index, tasks) in Self.scopeCounts.enumerated().dropFirst() {
            rows.append(.samples("hand-rolled MockURLProtocol: \(tasks) concurrent tasks", unit: "req/s", handRolled[index], higherIsBetter: true, baseline: alone))
        }
        let versus = Self.scopeCounts.indices.compactMap { index -> String? in
            guard let mine = SampleSummary(stubbed[index], higherIsBetter: true)?.median,
                  let theirs = SampleSummary(handRolled[index], higherIsBetter: true)?.median, theirs > 0
            else { return nil }
            return "\(Self.scopeCounts[index]): \(Format.ratio(mine / theirs))"
        }
        let share = Self.scopeCounts.map { "\($0) × \(requestsPerBurst / $0)" }.joined(separator: ", ")
        return ReportSection(
            name: MeasurementKind.throughput.rawValue,
            title: "Throughput under parallel scopes (requests per second, one shared session)",
            baseline: "the same burst of requests made by 1 scope (and, for reference, the hand-rolled protocol with 1, 8 and 64 tasks)",
            rows: rows,
            notes: [
                "A sample is one burst of \(Format.number(Double(requestsPerBurst), digits: 0)) requests (\(share)), every scope's requests one after another, all scopes at once, timed from a common start (after every scope registered its stub) to the last response; p90/p99 are the slow tail (the rate 90%/99% of bursts reached).",
                "Every scope stubs the same URL with a body unique to it and checks each response; the wrong-scope count covers all \(Format.number(Double(requests), digits: 0)) timed URLStubs requests and the warm-up.",
                "The hand-rolled rows run the same bursts from tasks outside any scope through the baseline session; each concurrency level alternates hand-rolled and URLStubs bursts. URLStubs / hand-rolled throughput at the same concurrency: " + versus.joined(separator: ", ") + ".",
                "Foundation runs every session's work on one process-wide serial queue, so throughput is bounded by Foundation, not by the number of scopes.",
            ]
        )
    }

    /// Runs one burst of the hand-rolled protocol: `tasks` tasks outside any scope,
    /// each making `requestsEach` requests through the baseline session.
    static func baselineBurst(tasks: Int, requestsEach: Int) async -> Burst {
        let session = BenchmarkFixtures.baselineSession
        let request = BenchmarkFixtures.request(BenchmarkFixtures.sharedURL)
        let expected = BenchmarkFixtures.baselineBody
        let ready = AsyncLatch(count: tasks)
        let start = AsyncLatch(count: 1)
        return await withTaskGroup(of: Tally.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var tally = Tally()
                    await ready.arrive()
                    await start.wait()
                    for _ in 0..<requestsEach {
                        let data = try? await session.data(for: request).0
                        if data != expected {
                            tally.failed += 1
                        }
                    }
                    tally.finishedAt = Stopwatch.now()
                    return tally
                }
            }
            return await collect(group: &group, ready: ready, start: start, requests: tasks * requestsEach)
        }
    }

    /// Runs one burst: `scopes` scopes, each making `requestsEach` requests.
    static func burst(scopes: Int, requestsEach: Int, round: Int) async -> Burst {
        let session = BenchmarkFixtures.stubbedSession
        let request = BenchmarkFixtures.request(BenchmarkFixtures.sharedURL)
        let ready = AsyncLatch(count: scopes)
        let start = AsyncLatch(count: 1)
        return await withTaskGroup(of: Tally.self) { group in
            for scopeIndex in 0..<scopes {
                group.addTask {
                    let own = BenchmarkFixtures.body(tag: "throughput round \(round) scope \(scopeIndex)")
                    var tally = Tally()
                    do {
                        try await withStubScope { scope in
                            await scope.stub(.get(BenchmarkFixtures.sharedURL.absoluteString), with: .data(own))
                            await ready.arrive()
                            await start.wait()
                            for _ in 0..<requestsEach {
                                do {
                                    let (data, _) = try await session.data(for: request)
                                    if data == own {
                                        continue
                                    }
                                    // Every scope's body starts with the same words.
                                    if data.starts(with: Data("throughput round ".utf8)) {
                                        tally.misdelivered += 1
                                    } else {
                                        tally.failed += 1
                                    }
                                } catch {
                                    tally.failed += 1
                                }
                            }
                            tally.finishedAt = Stopwatch.now()
                        }
                    } catch {
                        tally.failed += 1
                    }
                    return tally
                }
            }
            return await collect(group: &group, ready: ready, start: start, requests: scopes * requestsEach)
        }
    }

    /// Starts a burst once every task is ready, then gathers the tallies into
    /// requests per second from the start to the last task's end.
    private static func collect(group: inout TaskGroup<Tally>, ready: AsyncLatch, start: AsyncLatch, requests: Int) async -> Burst {
        await ready.wait()
        let begin = Stopwatch.now()
        await start.arrive()
        var burst = Burst(requestsPerSecond: 0, misdelivered: 0, failed: 0)
        var end = begin
        for await tally in group {
            burst.misdelivered += tally.misdelivered
            burst.failed += tally.failed
            end = max(end, tally.finishedAt)
        }
        let seconds = Double(end &- begin) / 1e9
        burst.requestsPerSecond = seconds > 0 ? Double(requests) / seconds : 0
        return burst
    }
}
