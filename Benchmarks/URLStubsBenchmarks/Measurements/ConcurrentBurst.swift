#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One batch of requests made by many scoped workers at once: each worker makes
/// its share back to back, all released together, timed from the release to the
/// last response.
struct ConcurrentBurst: Sendable {
    /// The start of every concurrent scope's body; a response starting with it
    /// came from one of those scopes.
    static let scopeBodyPrefix = "throughput scope "

    /// What the checks of a burst found.
    struct Tally: Sendable {
        /// Responses carrying another scope's body.
        var misdelivered = 0
        /// Requests that failed or carried a body of no scope.
        var failed = 0
    }

    /// What one worker brought back: its answers and when it finished.
    private struct Share: Sendable {
        /// The worker's index, for the body it expects.
        var index: Int
        /// Each request's wall time, in microseconds.
        var times: [Double]
        /// Each request's body, or `nil` for an error.
        var answers: [Data?]
        /// When the worker's last request returned.
        var finishedAt: UInt64
    }

    /// The workers, each inside its own scope stubbing the request's URL with
    /// ``ThroughputBenchmark/scopeBody(_:)`` of its index.
    let workers: [ScopedWorker]
    /// Requests each worker makes per burst.
    let requestsEach: Int
    /// The request every worker makes.
    let request: URLRequest

    /// Runs one burst through URLStubs' session (`stubbed`) or the baseline's;
    /// returns what it measured and what the checks found.
    func run(stubbed: Bool) async -> (BatchSample, Tally) {
        let session = stubbed ? BenchmarkFixtures.stubbedSession : BenchmarkFixtures.baselineSession
        let ready = AsyncLatch(count: workers.count)
        let start = AsyncLatch(count: 1)
        let requestsEach = requestsEach
        let request = request
        return await withTaskGroup(of: Share.self) { group in
            for (index, worker) in workers.enumerated() {
                group.addTask {
                    await worker.run {
                        var share = Share(index: index, times: [], answers: [], finishedAt: 0)
                        share.times.reserveCapacity(requestsEach)
                        share.answers.reserveCapacity(requestsEach)
                        await ready.arrive()
                        await start.wait()
                        for _ in 0..<requestsEach {
                            let begin = Stopwatch.now()
                            let answer = await RequestTimer.answer(request, through: session, style: .async)
                            share.times.append(Stopwatch.microseconds(since: begin))
                            share.answers.append(answer)
                        }
                        share.finishedAt = Stopwatch.now()
                        return share
                    }
                }
            }
            await ready.wait()
            let meter = BatchMeter()
            await start.arrive()
            var shares: [Share] = []
            for await share in group {
                shares.append(share)
            }
            let end = shares.map(\.finishedAt).max() ?? meter.startTime
            let sample = meter.stop(requests: workers.count * requestsEach, requestMicroseconds: shares.flatMap(\.times), unexpected: 0, end: end)
            let tally = Self.check(shares, stubbed: stubbed)
            return (sample, tally)
        }
    }

    /// Checks every answer of a burst against the body its worker's scope (or the
    /// baseline) answers.
    private static func check(_ shares: [Share], stubbed: Bool) -> Tally {
        var tally = Tally()
        let prefix = Data(scopeBodyPrefix.utf8)
        for share in shares {
            let expected = stubbed ? ThroughputBenchmark.scopeBody(share.index) : BenchmarkFixtures.baselineBody
            for answer in share.answers where answer != expected {
                if stubbed, let answer, answer.starts(with: prefix) {
                    tally.misdelivered += 1
                } else {
                    tally.failed += 1
                }
            }
        }
        return tally
    }
}
