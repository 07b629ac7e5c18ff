#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Where a late answer (a delayed, computed or streamed one) is handed to the
/// client: the place Foundation called `startLoading()`, recorded there.
///
/// - On Apple platforms' classic loader `startLoading()` runs on CFNetwork's client
///   thread, inside its run loop, and the client must be called on that thread, in
///   that mode: the answer is performed on that run loop.
/// - On Linux `startLoading()` runs on the task's work queue, a serial dispatch
///   queue without a run loop, and the client must be called on that queue, where
///   Foundation also cancels the task and lets it go: the answer is performed on
///   that queue, read from the task (see ``FoundationInternals``). Should a later
///   Foundation not have it, the answer is stored and `resume()` on the running
///   task makes Foundation call `startLoading()` again there, which delivers it.
/// - Elsewhere (Apple's Network.framework loader calls the protocol on a queue of
///   its own): on the serial operation queue `startLoading()` ran on, when it ran on
///   one; otherwise on a serial queue of the delivery's own, so that its calls are
///   made one at a time and in order. There, unlike the other places, the calls
///   are not made where `stopLoading()` comes: the calls already taken for delivery
///   when `stopLoading()` starts may still be made after it. No public API names a
///   dispatch queue to send work to.
enum ClientThread: @unchecked Sendable {
    // @unchecked: the run loop is only used through `schedule`, which calls
    // thread-safe CFRunLoop functions (Apple) or adds a timer (Linux), the task only
    // through `state` and `resume()`, which Foundation lets any thread call, and the
    // queues through their thread-safe `addOperation` and `async`.

    /// A thread running a run loop, in the mode `startLoading()` was called in.
    case runLoop(RunLoop, RunLoop.Mode)
    /// The task's work queue on Linux.
    case workQueue(DispatchQueue)
    /// The task's work queue on Linux, re-entered through the task's `resume()`:
    /// where the queue itself cannot be read.
    case resumedTask(URLSessionTask)
    /// The serial operation queue `startLoading()` ran on.
    case operationQueue(OperationQueue)
    /// A serial queue of the delivery's own: where `startLoading()` ran is not a
    /// place work can be sent to.
    case serialQueue(DispatchQueue)

    /// Where the calling thread is, for `startLoading()` to record.
    static func current(task: URLSessionTask?) -> ClientThread {
        let loop = RunLoop.current
        if let mode = loop.currentMode {
            return .runLoop(loop, mode)
        }
        if let queue = OperationQueue.current, queue !== OperationQueue.main, queue.maxConcurrentOperationCount == 1 {
            return .operationQueue(queue)
        }
        #if canImport(FoundationNetworking)
        if let task {
            // Read here, on that queue: Foundation writes the fields before it only there.
            return FoundationInternals.workQueue(of: task).map { .workQueue($0) } ?? .resumedTask(task)
        }
        #endif
        return .serialQueue(DispatchQueue(label: "URLStubs.delivery"))
    }

    /// Runs `block` there, later; `block` checks that loading was not stopped.
    ///
    /// For ``resumedTask(_:)`` the block is not run: Foundation calls
    /// `startLoading()` again instead, which delivers the stored answer.
    func schedule(_ block: @escaping @Sendable () -> Void) {
        switch self {
        case let .runLoop(loop, mode):
            Self.perform(block, on: loop, in: mode)
        case let .resumedTask(task):
            // Foundation skips this for a task being cancelled or already complete.
            if task.state == .running {
                task.resume()
            }
        case let .operationQueue(queue):
            queue.addOperation(block)
        case let .workQueue(queue), let .serialQueue(queue):
            queue.async(execute: block)
        }
    }

    /// Runs `block` on `loop`'s thread in `mode`, waking the loop.
    private static func perform(_ block: @escaping @Sendable () -> Void, on loop: RunLoop, in mode: RunLoop.Mode) {
        #if canImport(Darwin)
        let runLoop = loop.getCFRunLoop()
        CFRunLoopPerformBlock(runLoop, mode.rawValue as CFString, block)
        CFRunLoopWakeUp(runLoop)
        #else
        // Swift's Foundation on Linux hides CFRunLoopWakeUp, and perform(inModes:)
        // does not wake the loop; adding a timer from another thread does both.
        loop.add(Timer(timeInterval: 0, repeats: false) { _ in block() }, forMode: mode)
        #endif
    }
}
