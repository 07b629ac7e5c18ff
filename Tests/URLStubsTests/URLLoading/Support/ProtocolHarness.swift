#if canImport(FoundationNetworking)
import FoundationNetworking
import Foundation
@testable import URLStubs

/// Drives one `StubURLProtocol` by hand, call by call, so that a test decides the
/// exact order of `startLoading()`, `stopLoading()`, the answer becoming ready and
/// the client thread taking it, and reads back one log of everything that
/// happened, in order.
///
/// The two places a late answer can be handed to the client are both modelled:
/// - ``Mode/runLoop``: `startLoading()` and `stopLoading()` run on a thread of the
///   harness that runs a run loop, as CFNetwork's client thread does on Apple
///   platforms; a late answer is scheduled on that run loop. The test can
///   ``hold()`` the thread, so a scheduled answer waits while it acts.
/// - ``Mode/workQueue``: they run on the task's own work queue, a serial queue
///   without a run loop, as on Linux, where a late answer is performed on that
///   queue (the protocol reads it from the task, as it does from Foundation's).
///   The client logs a call made anywhere else with `(off the work queue)`.
///   Foundation's `suspend()` marks the task and queues its `stopLoading()` in one
///   block on that queue, so no answer can be performed between the two.
///
/// The task is a ``ProbeTask`` whose state the test sets. A cancel is a
/// `stopLoading()` while the task is not suspended, which is how the protocol
/// tells it from a suspend. Foundation marks a cancelled task `.canceling` first,
/// and `DeliveryDriver.deliver` then skips it; here the task stays `.running`, so that
/// the state machine's own guards are tested alone (the task-state check has
/// tests of its own).
final class ProtocolHarness: Sendable {
    enum Mode: Sendable {
        case runLoop
        case workQueue
    }

    let mode: Mode
    private let thread: ClientThreadBox?

    init(_ mode: Mode) {
        self.mode = mode
        thread = mode == .runLoop ? ClientThreadBox() : nil
    }

    /// Stops the harness's client thread.
    func close() {
        thread?.close()
    }

    /// Creates the task and the protocol for `url` on the calling task, which tags
    /// the task with the calling task's scope (as a resume in that scope does).
    ///
    /// `inResume`: the protocol is created by `init(task:cachedResponse:client:)`,
    /// as Foundation on Linux creates it inside `resume()`, recording the scope
    /// itself; otherwise by `init(request:cachedResponse:client:)`, the task tagged
    /// in ``TaskScopes`` as the resume hook tags it (Foundation on Linux with a
    /// URL cache creates it elsewhere, and Apple platforms always do).
    func makeLoad(_ url: String, inResume: Bool = true) -> Load {
        Load(request: URLRequest(url: URL(string: url)!), checksWorkQueue: mode == .workQueue, inResume: inResume)
    }

    /// Calls `startLoading()` where Foundation would; returns once it returned.
    ///
    /// A Swift task that `startLoading()` starts to produce a late answer opens
    /// the load's ``Load/producingTaskEnded`` when it ends, which is after it
    /// recorded its answer.
    func start(_ load: Load) async {
        await run(for: load) {
            load.log.record("startLoading")
            ProducingTaskProbe.$endSignal.withValue(EndSignal(load.producingTaskEnded)) {
                load.urlProtocol.startLoading()
            }
        }
    }

    /// Calls `stopLoading()` where Foundation would, as a suspend (the task is
    /// `.suspended`) or as a cancel (the task stays `.running`).
    func stop(_ load: Load, _ kind: StopKind) async {
        await run(for: load) { Self.stopNow(load, kind) }
    }

    /// Calls `startLoading()` again after a suspend: the task runs again first.
    func restart(_ load: Load) async {
        load.task.setState(.running)
        await run(for: load) {
            load.log.record("startLoading")
            load.urlProtocol.startLoading()
        }
    }

    /// Returns once everything scheduled on the client thread (or queued on the
    /// load's work queue) so far has run.
    func flush(_ load: Load) async {
        await run(for: load) {}
    }

    enum StopKind: Sendable {
        case suspend
        case cancel
    }

    static func stopNow(_ load: Load, _ kind: StopKind) {
        switch kind {
        case .suspend:
            load.task.setState(.suspended)
            load.log.record("stopLoading (suspend)")
        case .cancel:
            load.log.record("stopLoading (cancel)")
        }
        load.urlProtocol.stopLoading()
    }

    /// Blocks the client thread, or the load's work queue, until the hold is
    /// released; returns once it is blocked. Answers scheduled there meanwhile
    /// wait, and run after the action given to ``Hold/release(then:)``.
    func hold(_ load: Load) async -> Hold {
        let hold = Hold()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            perform(for: load) {
                continuation.resume()
                hold.block()
            }
        }
        return hold
    }

    /// Runs `block` on the client thread, or on the load's work queue; returns after it.
    private func run(for load: Load, _ block: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            perform(for: load) {
                block()
                continuation.resume()
            }
        }
    }

    /// Schedules `block` on the client thread, or on the load's work queue.
    private func perform(for load: Load, _ block: @escaping @Sendable () -> Void) {
        switch mode {
        case .runLoop: thread!.perform(block)
        case .workQueue: load.workQueue.async(execute: block)
        }
    }
}

extension ProtocolHarness {
    /// One request: its task, its protocol, and the log of what happened to it.
    final class Load: @unchecked Sendable {
        // @unchecked: `urlProtocol` is created on the test's task before any other
        // thread sees it, and then used only on the client thread or work queue.
        let log = LoadLog()
        let task: ProbeTask
        let client: LoggingClient
        let urlProtocol: StubURLProtocol
        /// The task's work queue, as the protocol reads it.
        let workQueue: DispatchQueue
        /// Opens when the Swift task producing a late answer has ended.
        let producingTaskEnded = Latch()

        fileprivate init(request: URLRequest, checksWorkQueue: Bool, inResume: Bool) {
            task = ProbeTask(request: request, log: log)
            guard let queue = FoundationInternals.workQueue(of: task) else {
                preconditionFailure("Foundation's URLSessionTask has no workQueue field to read")
            }
            workQueue = queue
            if checksWorkQueue {
                queue.setSpecific(key: LoggingClient.workQueueKey, value: ())
            }
            client = LoggingClient(log: log, checksWorkQueue: checksWorkQueue)
            if inResume {
                urlProtocol = StubURLProtocol(task: task, cachedResponse: nil, client: client)
            } else {
                TaskScopes.shared.tagOnFirstResume(task)
                urlProtocol = StubURLProtocol(request: request, cachedResponse: nil, client: client)
                urlProtocol.task = task
            }
        }
    }

    /// A held client thread.
    final class Hold: @unchecked Sendable {
        // @unchecked: `action` is written before the semaphore is signalled and read
        // after it is waited on.
        private let semaphore = DispatchSemaphore(value: 0)
        private var action: (@Sendable () -> Void)?
        private let done = Latch()

        fileprivate func block() {
            semaphore.wait()
            action?()
            done.open()
        }

        /// Runs `action` on the client thread, then lets the thread go on to what
        /// was scheduled on it meanwhile; returns once `action` ran.
        func release(then action: @escaping @Sendable () -> Void = {}) async {
            self.action = action
            semaphore.signal()
            await done.wait()
        }
    }
}

/// A data task whose state the test sets, and whose `resume()` is only logged:
/// `ClientThread.resumedTask` calls it to have Foundation call `startLoading()`
/// again, where the task's work queue cannot be read.
final class ProbeTask: URLSessionDataTask, @unchecked Sendable {
    // @unchecked: `current` is a lock; the other properties are constants.
    private let request: URLRequest
    private let current = Locked(URLSessionTask.State.running)
    private let log: LoadLog
    /// Opens at the first `resume()`.
    let resumeRequested = Latch()

    init(request: URLRequest, log: LoadLog) {
        self.request = request
        self.log = log
        super.init()
    }

    override var originalRequest: URLRequest? { request }
    override var currentRequest: URLRequest? { request }
    override var state: URLSessionTask.State {
        reads.withLock { $0 += 1 }
        return current.withLock { $0 }
    }

    /// How many times the task's state was read so far.
    private let reads = Locked(0)
    var stateReads: Int { reads.withLock { $0 } }

    func setState(_ state: URLSessionTask.State) {
        current.withLock { $0 = state }
    }

    override func resume() {
        log.record("task.resume()")
        resumeRequested.open()
    }
}

/// The one ordered log of a load: the harness's calls into the protocol and the
/// protocol's calls to its client.
final class LoadLog: Sendable {
    private let entries = Locked<[String]>([])
    /// Opens at the first outcome: a finish or a failure.
    let outcome = Latch()

    func record(_ entry: String) {
        entries.withLock { $0.append(entry) }
        if entry.hasPrefix("finish") || entry.hasPrefix("fail") {
            outcome.open()
        }
    }

    /// Everything so far, in order.
    var all: [String] {
        entries.withLock { $0 }
    }
}

/// A client that writes every call into the load's log: `response 200`,
/// `data "text"`, `finish`, `fail <URLError code>`.
final class LoggingClient: NSObject, URLProtocolClient, Sendable {
    /// Set on the work queue of a load whose calls must be made there.
    static let workQueueKey = DispatchSpecificKey<Void>()
    private let log: LoadLog
    private let checksWorkQueue: Bool

    init(log: LoadLog, checksWorkQueue: Bool = false) {
        self.log = log
        self.checksWorkQueue = checksWorkQueue
    }

    /// Logs `call`, marked when it should have been made on the work queue and was not.
    private func record(_ call: String) {
        let misplaced = checksWorkQueue && DispatchQueue.getSpecific(key: Self.workQueueKey) == nil
        log.record(misplaced ? call + " (off the work queue)" : call)
    }

    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {
        record("redirect")
    }

    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {
        record("cached")
    }

    func urlProtocol(_ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy policy: URLCache.StoragePolicy) {
        record("response \(HTTPURLResponse.status(of: response))")
    }

    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) {
        record("data \"\(String(decoding: data, as: UTF8.self))\"")
    }

    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) {
        record("finish")
    }

    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) {
        record("fail \((error as? URLError)?.code.rawValue ?? 0)")
    }

    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {
        record("challenge")
    }

    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {
        record("challenge cancelled")
    }
}

/// Tells when the Swift task that produces a late answer ends.
///
/// `startLoading()` runs on a thread that is not a Swift task, so the task it
/// starts copies the task-locals bound on that thread; its copy of ``endSignal``
/// is released when the task ends, after it handed its answer to the delivery.
enum ProducingTaskProbe {
    @TaskLocal static var endSignal: EndSignal?
}

/// Opens a latch when it is released.
final class EndSignal: Sendable {
    private let latch: Latch

    init(_ latch: Latch) {
        self.latch = latch
    }

    deinit {
        latch.open()
    }
}

/// A thread running a run loop, as CFNetwork's client thread.
private final class ClientThreadBox: @unchecked Sendable {
    // @unchecked: `loop` is written once by the thread before `init` returns (a
    // semaphore orders it) and then only read; adding a timer to a run loop from
    // another thread is thread-safe.
    private var loop: RunLoop?
    private let thread: Thread

    init() {
        let started = DispatchSemaphore(value: 0)
        let box = LoopBox()
        thread = Thread {
            // A repeating timer keeps the run loop waiting: with only a one-shot timer
            // Foundation on Linux returns from run(mode:before:) at once, and the
            // thread would spin.
            RunLoop.current.add(Timer(timeInterval: 3_600, repeats: true) { _ in }, forMode: .default)
            box.loop = RunLoop.current
            started.signal()
            while !Thread.current.isCancelled {
                _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.05))
            }
        }
        thread.name = "harness.client-thread"
        thread.start()
        started.wait()
        loop = box.loop
    }

    func perform(_ block: @escaping @Sendable () -> Void) {
        loop!.add(Timer(timeInterval: 0, repeats: false) { _ in block() }, forMode: .default)
    }

    func close() {
        thread.cancel()
    }
}

private final class LoopBox: @unchecked Sendable {
    // @unchecked: written by the client thread before a semaphore is signalled,
    // read after it is waited on.
    var loop: RunLoop?
}
#endif
