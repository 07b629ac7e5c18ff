#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// Many late answers at once through real sessions, each made of several client
/// calls: every request ends once, with its whole body, and Foundation is never
/// called for a task it has let go (on Linux that stops the process).
@Suite("Late answers under load", .timeLimit(.minutes(1)))
struct LateAnswerStressTests {
    private static let url = URL(string: "https://api.example.com/words")!
    private static let words = ["one", "two", "three", "four", "five", "six"]

    /// Reads every piece of a body as it comes, through the session's delegate.
    private final class PieceCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // @unchecked: `bodies` is only touched while `lock` is held.
        private let lock = NSLock()
        private var bodies: [Int: Data] = [:]
        private var waiters: [Int: CheckedContinuation<Data, Never>] = [:]

        func body(of task: URLSessionDataTask) async -> Data {
            await withCheckedContinuation { continuation in
                lock.withLock { waiters[task.taskIdentifier] = continuation }
                task.resume()
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.withLock { bodies[dataTask.taskIdentifier, default: Data()].append(data) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let (waiter, body) = lock.withLock { (waiters.removeValue(forKey: task.taskIdentifier), bodies[task.taskIdentifier] ?? Data()) }
            waiter?.resume(returning: body)
        }
    }

    @Test("400 streamed answers of six pieces, half read by data(from:) and half piece by piece by a session delegate, each arrive whole and end once")
    func streamedAnswersUnderLoad() async throws {
        let collector = PieceCollector()
        let delegateSession = URLSession(configuration: .stubbed, delegate: collector, delegateQueue: nil)
        defer { delegateSession.invalidateAndCancel() }
        for _ in 0..<10 {
            try await withStubScope { scope in
                await scope.stub(.get(Self.url), with: .stream { writer in
                    for word in Self.words {
                        try await writer.write(word)
                    }
                })
                let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                    for index in 0..<40 {
                        group.addTask {
                            if index.isMultiple(of: 2) {
                                return String(decoding: try await URLSession.stubbed.data(from: Self.url).0, as: UTF8.self)
                            }
                            return String(decoding: await collector.body(of: delegateSession.dataTask(with: Self.url)), as: UTF8.self)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(bodies == Array(repeating: Self.words.joined(), count: 40))
            }
        }
    }
}
