#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation
import URLStubs

/// What the one-test row's setup and end cost without its requests, on each side:
/// URLStubs' scope with the test's stubs (`.get(url) with: .data(body)`), opened and
/// ended; the hand-rolled protocol's handler over a table of the same URLs, set and
/// cleared. With warm caches, the same work again and again as in a loop that does
/// nothing else; and with caches emptied first, as the other work between a suite's
/// tests (its requests, the test framework, the code under test) empties them.
///
/// Each test's setup is timed on its own by the thread's CPU clock; for the cold
/// figures, ``CacheEvictingMemory`` is touched first, outside the timed part. A round measures a batch of each side at each
/// temperature, the sides' order alternating from round to round; each side's
/// figure is a round's median test, and the difference rows are the median over
/// rounds of URLStubs' figure minus the hand-rolled one of the same round, so that
/// the machine's drift between rounds cancels. A setup that ends on another thread
/// than it started on (its time would be meaningless) is left out and counted.
struct TestSetupCacheBenchmark {
    /// Whether this is the smoke run.
    let quick: Bool

    /// Measured rounds (one more warms up).
    var rounds: Int { quick ? 2 : 30 }
    /// Tests per side, temperature and round.
    var testsPerBatch: Int { quick ? 4 : 40 }

    /// The side of the comparison a batch measures.
    private enum Side {
        case urlStubs, handRolled
    }

    /// The rows: both sides with warm caches, then both with caches emptied.
    func run(pool: [[URLRequest]], body: Data, on worker: ScopedWorker) async -> [ReportRow] {
        let eviction = CacheEvictingMemory()
        let tests = testsPerBatch
        var kept: [Round] = []
        var movedThread = 0
        var failed = 0
        var next = 0
        for round in 0...rounds {
            Progress.log("shapes: a test's setup alone, round \(round)/\(rounds)")
            let sides: [Side] = round % 2 == 0 ? [.urlStubs, .handRolled] : [.handRolled, .urlStubs]
            // The median test of a batch of the pool's next tests on `side`.
            func medianTest(_ side: Side, evicting memory: CacheEvictingMemory?) async -> Double? {
                let first = next
                next += tests
                let batch = await worker.run {
                    await Self.batch(side, tests: (first..<first + tests).map { pool[$0 % pool.count] }, body: body, evicting: memory)
                }
                movedThread += batch.movedThread
                failed += batch.failed
                return SampleSummary(batch.microseconds)?.median
            }
            var figures: [Side: (warm: Double, cold: Double)] = [:]
            for side in sides {
                let warm = await medianTest(side, evicting: nil)
                let cold = await medianTest(side, evicting: eviction)
                if let warm, let cold {
                    figures[side] = (warm, cold)
                }
            }
            // Round 0 warms up; a round is kept whole, so that its sides stay paired.
            guard round > 0, let urlStubs = figures[.urlStubs], let handRolled = figures[.handRolled] else { continue }
            kept.append(Round(urlStubs: urlStubs, handRolled: handRolled))
        }
        var notes: [String] = []
        if movedThread > 0 {
            notes.append("\(movedThread) setups ended on another thread and were left out")
        }
        if failed > 0 {
            notes.append("UNEXPECTED: \(failed) scopes failed")
        }
        let note = notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
        let stubs = pool.first?.count ?? 0
        return [
            ReportRow.samples("a test's setup and end alone, warm caches: URLStubs (a scope, \(stubs) stubs), CPU time per test\(note)", unit: "µs", kept.map(\.urlStubs.warm), isReference: false),
            ReportRow.samples("the same, hand-rolled (a handler over a table of \(stubs) URLs, set and cleared)", unit: "µs", kept.map(\.handRolled.warm), isReference: false),
            ReportRow.samples("URLStubs minus hand-rolled, round by round", unit: "µs", kept.map { $0.urlStubs.warm - $0.handRolled.warm }, isReference: false),
            ReportRow.samples("the setup and end after \(CacheEvictingMemory.byteCount >> 20) MiB of other memory was touched (caches emptied): URLStubs", unit: "µs", kept.map(\.urlStubs.cold), isReference: false),
            ReportRow.samples("the same, hand-rolled", unit: "µs", kept.map(\.handRolled.cold), isReference: false),
            ReportRow.samples("URLStubs minus hand-rolled, round by round", unit: "µs", kept.map { $0.urlStubs.cold - $0.handRolled.cold }, isReference: false),
        ]
    }

    /// A round's figures, each its batch's median test: per side, warm and cold.
    private struct Round {
        var urlStubs: (warm: Double, cold: Double)
        var handRolled: (warm: Double, cold: Double)
    }

    /// The times of one batch's tests, in microseconds, and what was left out.
    private struct Batch: Sendable {
        var microseconds: [Double] = []
        var movedThread = 0
        var failed = 0
    }

    /// Sets up and ends each test of `tests` on `side`, timing each on its own.
    private static func batch(_ side: Side, tests: [[URLRequest]], body: Data, evicting memory: CacheEvictingMemory?) async -> Batch {
        var batch = Batch()
        batch.microseconds.reserveCapacity(tests.count)
        for requests in tests {
            memory?.touch()
            let thread = pthread_self()
            let start = ThreadCPUClock.nanoseconds()
            switch side {
            case .urlStubs:
                do {
                    try await withStubScope { scope in
                        for request in requests {
                            await scope.stub(.get(request.url!.absoluteString), with: .data(body))
                        }
                    }
                } catch {
                    batch.failed += 1
                }
            case .handRolled:
                HandlerMockURLProtocol.setHandler(answering: requests, with: body)
                HandlerMockURLProtocol.setHandler(nil)
            }
            let elapsed = ThreadCPUClock.nanoseconds() - start
            guard pthread_equal(thread, pthread_self()) != 0 else {
                batch.movedThread += 1
                continue
            }
            batch.microseconds.append(Double(elapsed) / 1_000)
        }
        return batch
    }
}
