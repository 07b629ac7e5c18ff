#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Many requests through one shared session from 64 tasks whose scopes open and
/// close all the time, each stubbing the same URL with a body of its own: any
/// response delivered to the wrong scope shows up as a foreign body.
struct ChurningScopes {
    /// What the run saw.
    struct Outcome {
        var requests = 0
        var misdeliveries = 0
        var failures = 0
        var seconds = 0.0
    }

    /// Tasks running at once, each in its own scope.
    let workers = 64
    /// Requests each scope makes before it closes and the task opens the next.
    let requestsPerScope = 16
    /// Requests in all.
    let total: Int

    /// Runs the churn and counts what came back wrong.
    func run() async -> Outcome {
        let scopesPerWorker = max(1, total / (workers * requestsPerScope))
        let start = Stopwatch.now()
        let counts = await withTaskGroup(of: (Int, Int, Int).self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var counts = (0, 0, 0)
                    for generation in 0..<scopesPerWorker {
                        let (requests, foreign, failed) = await Self.scope(worker: worker, generation: generation, requests: requestsPerScope)
                        counts.0 += requests
                        counts.1 += foreign
                        counts.2 += failed
                        if worker == 0, generation % max(1, scopesPerWorker / 10) == 0 {
                            Progress.log("stress: churning scopes, generation \(generation + 1)/\(scopesPerWorker)")
                        }
                    }
                    return counts
                }
            }
            return await group.reduce(into: (0, 0, 0)) { $0.0 += $1.0; $0.1 += $1.1; $0.2 += $1.2 }
        }
        return Outcome(requests: counts.0, misdeliveries: counts.1, failures: counts.2, seconds: Stopwatch.nanoseconds(since: start) / 1e9)
    }

    /// One scope's life: its own body for the shared URL, `requests` requests, the
    /// end. Returns the requests made, those answered with another scope's body,
    /// and those that failed (including the scope's own report).
    private static func scope(worker: Int, generation: Int, requests: Int) async -> (Int, Int, Int) {
        let own = Data("worker \(worker) generation \(generation)".utf8)
        let request = BenchmarkFixtures.request(BenchmarkFixtures.sharedURL)
        do {
            return try await withStubScope { scope in
                await scope.stub(.get(BenchmarkFixtures.sharedURL.absoluteString), with: .data(own))
                var foreign = 0
                var failed = 0
                for _ in 0..<requests {
                    do {
                        let (data, _) = try await BenchmarkFixtures.stubbedSession.data(for: request)
                        if data != own { foreign += 1 }
                    } catch {
                        failed += 1
                    }
                }
                return (requests, foreign, failed)
            }
        } catch {
            return (requests, 0, 1)
        }
    }
}
