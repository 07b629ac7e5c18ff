#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Resident memory across many requests cancelled while their delayed answers are
/// pending, in short-lived scopes: a cancelled request must leave nothing behind
/// once its scope has ended (and its in-flight entry must go at once, which the
/// test suite pins).
enum CancelMemory {
    /// RSS after a warm-up and after the measured cancels, and the cancels that
    /// did not end with `URLError(.cancelled)`.
    struct Outcome {
        var before = 0
        var after = 0
        var wrongEndings = 0
    }

    /// Scopes at once.
    static let lanes = 16
    /// Cancels per scope.
    static let cancelsPerScope = 100

    /// Cancels `warmUp` requests, reads RSS, cancels `count` more, reads it again.
    static func run(count: Int, warmUp: Int) async -> Outcome {
        var outcome = Outcome()
        outcome.wrongEndings += await cancel(warmUp)
        outcome.before = ResidentMemory.bytes() ?? 0
        for tenth in 1...10 {
            outcome.wrongEndings += await cancel(count / 10)
            Progress.log("stress: \(tenth * count / 10) cancels, RSS \(Format.value(Double(ResidentMemory.bytes() ?? 0) / 1_048_576, unit: "MiB"))")
        }
        outcome.after = ResidentMemory.bytes() ?? 0
        return outcome
    }

    /// Cancels `count` requests in scopes of `cancelsPerScope`, `lanes` scopes at a
    /// time; returns how many did not end with `URLError(.cancelled)`.
    private static func cancel(_ count: Int) async -> Int {
        let scopes = max(1, count / cancelsPerScope)
        return await withTaskGroup(of: Int.self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    var wrong = 0
                    for _ in stride(from: lane, to: scopes, by: lanes) {
                        wrong += await oneScope()
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
    }

    /// One scope: a stub answering after ten minutes, `cancelsPerScope` POSTs with a
    /// 1 KiB body, each cancelled after 200 µs.
    private static func oneScope() async -> Int {
        var request = BenchmarkFixtures.request(BenchmarkFixtures.sharedURL)
        request.httpMethod = "POST"
        request.httpBody = BenchmarkFixtures.baselineBody
        let wrong = try? await withStubScope("cancels") { scope in
            await scope.stub(.post(BenchmarkFixtures.sharedURL.absoluteString), with: .data(BenchmarkFixtures.baselineBody).delayed(by: .seconds(600)))
            var wrong = 0
            for _ in 0..<cancelsPerScope {
                let task = Task { [request] in try await BenchmarkFixtures.stubbedSession.data(for: request) }
                try? await Task.sleep(for: .microseconds(200))
                task.cancel()
                if case let .failure(error as URLError) = await task.result, error.code == .cancelled { continue }
                wrong += 1
            }
            return wrong
        }
        return wrong ?? cancelsPerScope
    }
}
