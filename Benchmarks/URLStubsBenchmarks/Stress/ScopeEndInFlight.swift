#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Ends a scope while many of its requests wait for a response that would come
/// much later, and times how long each request takes to fail after the scope ended.
enum ScopeEndInFlight {
    /// What one round saw.
    struct Outcome {
        /// Milliseconds from the scope's end to each request's failure.
        var failureDelays: [Double] = []
        /// Requests that did not fail with the scope's error.
        var wrongEndings = 0

        /// How `tasks` ended, each failure timed from `start`; a task returns when
        /// its request ended and whether it failed as expected.
        static func collect(_ tasks: [Task<(ContinuousClock.Instant, Bool), Never>], since start: ContinuousClock.Instant) async -> Outcome {
            var outcome = Outcome()
            for task in tasks {
                let (instant, failedAsExpected) = await task.value
                if failedAsExpected {
                    let delay = instant - start
                    outcome.failureDelays.append(Double(delay.components.seconds) * 1e3 + Double(delay.components.attoseconds) / 1e15)
                } else {
                    outcome.wrongEndings += 1
                }
            }
            return outcome
        }
    }

    /// Starts `count` requests in a scope, waits until all are in flight, ends the
    /// scope and collects how each ended.
    static func run(count: Int) async -> Outcome {
        let request = BenchmarkFixtures.request(BenchmarkFixtures.sharedURL)
        let ended = LockedValue<ContinuousClock.Instant?>(nil)
        var tasks: [Task<(ContinuousClock.Instant, Bool), Never>] = []
        _ = try? await withStubScope("scope end with \(count) in flight") { scope in
            await scope.stub(.get(BenchmarkFixtures.sharedURL.absoluteString), with: .data(BenchmarkFixtures.baselineBody).delayed(by: .seconds(600)))
            for _ in 0..<count {
                tasks.append(Task {
                    do {
                        _ = try await BenchmarkFixtures.stubbedSession.data(for: request)
                        return (ContinuousClock.now, false)
                    } catch let error as URLError {
                        return (ContinuousClock.now, error.code == .resourceUnavailable)
                    } catch {
                        return (ContinuousClock.now, false)
                    }
                })
            }
            _ = try? await scope.waitForRequests(matching: .get(BenchmarkFixtures.sharedURL.absoluteString), count: count, timeout: .seconds(120))
            ended.withLock { $0 = .now }
        }
        return await Outcome.collect(tasks, since: ended.withLock { $0 } ?? .now)
    }
}
