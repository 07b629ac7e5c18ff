#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Where late answers are made when `startLoading()` ran somewhere without a run
/// loop, as Apple's Network.framework loader may call it.
@Suite("Where late answers are made", .timeLimit(.minutes(1)))
struct ClientThreadTests {
    /// Records the order blocks ran in, and whether each ran where it should.
    private final class Runs: @unchecked Sendable {
        // @unchecked: every property is read and written while `lock` is held.
        private let lock = NSLock()
        private var order: [Int] = []
        private var misplaced = 0

        func note(_ index: Int, inPlace: Bool) {
            lock.withLock {
                order.append(index)
                misplaced += inPlace ? 0 : 1
            }
        }

        var snapshot: (order: [Int], misplaced: Int) {
            lock.withLock { (order, misplaced) }
        }
    }

    /// Records where `ClientThread.current` is called from `queue`, then schedules
    /// 200 blocks there from another thread and waits until they ran.
    private func schedule(from run: (@escaping @Sendable () -> Void) -> Void, inPlace: @escaping @Sendable () -> Bool) async -> (ClientThread, Runs) {
        let clientThread = await withCheckedContinuation { (continuation: CheckedContinuation<ClientThread, Never>) in
            run { continuation.resume(returning: ClientThread.current(task: nil)) }
        }
        let runs = Runs()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                for index in 0..<200 {
                    clientThread.schedule {
                        runs.note(index, inPlace: inPlace())
                        if index == 199 {
                            continuation.resume()
                        }
                    }
                }
            }
        }
        return (clientThread, runs)
    }

    @Test("from a serial operation queue, late answers are made on that queue, in the order they were scheduled")
    func serialOperationQueue() async {
        let queue = OperationQueue()
        queue.name = "loader"
        queue.maxConcurrentOperationCount = 1
        let (clientThread, runs) = await schedule(from: { queue.addOperation($0) }, inPlace: { OperationQueue.current === queue })
        guard case let .operationQueue(chosen) = clientThread else {
            Issue.record("expected the operation queue, got \(clientThread)")
            return
        }
        #expect(chosen === queue)
        #expect(runs.snapshot.order == Array(0..<200))
        #expect(runs.snapshot.misplaced == 0)
    }

    @Test("from a dispatch queue (no run loop, no operation queue), late answers are made one at a time, in order, on a serial queue of the delivery's own")
    func plainDispatchQueue() async {
        let loaderQueue = DispatchQueue(label: "loader")
        let (clientThread, runs) = await schedule(from: { loaderQueue.async(execute: $0) }, inPlace: { OperationQueue.current == nil })
        guard case .serialQueue = clientThread else {
            Issue.record("expected a serial queue of URLStubs' own, got \(clientThread)")
            return
        }
        #expect(runs.snapshot.order == Array(0..<200))
        #expect(runs.snapshot.misplaced == 0)
    }

    @Test("from a concurrent operation queue, which has no order to keep, late answers go to a serial queue of the delivery's own")
    func concurrentOperationQueue() async {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        let (clientThread, runs) = await schedule(from: { queue.addOperation($0) }, inPlace: { true })
        guard case .serialQueue = clientThread else {
            Issue.record("expected a serial queue of URLStubs' own, got \(clientThread)")
            return
        }
        #expect(runs.snapshot.order == Array(0..<200))
    }

    #if canImport(FoundationNetworking)
    @Test("on Linux, the place of a session task's late answers is its own work queue, read from Foundation's task")
    func linuxWorkQueue() async throws {
        let session = URLSession(configuration: .stubbed)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URL(string: "https://api.example.com/never-resumed")!)
        let workQueue = try #require(FoundationInternals.workQueue(of: task))
        #expect(workQueue.label == "org.swift.URLSessionTask.WorkQueue")
        guard case let .workQueue(chosen) = ClientThread.current(task: task) else {
            Issue.record("expected the task's work queue, got \(ClientThread.current(task: task))")
            return
        }
        #expect(chosen === workQueue)
    }

    @Test("where a task's work queue cannot be read, a late answer has a running task resume, and never a suspended, cancelled or completed one", arguments: [
        (URLSessionTask.State.running, ["task.resume()"]),
        (.suspended, []), (.canceling, []), (.completed, []),
    ])
    func resumedTaskFallback(state: URLSessionTask.State, expected: [String]) async {
        let log = LoadLog()
        let task = ProbeTask(request: URLRequest(url: URL(string: "https://api.example.com/answer")!), log: log)
        task.setState(state)
        ClientThread.resumedTask(task).schedule { log.record("block ran") }
        #expect(log.all == expected)
    }
    #endif
}
