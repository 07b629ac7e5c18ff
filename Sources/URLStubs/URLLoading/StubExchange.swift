#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The link between one loading request, the Swift task that produces its answer,
/// and the URL protocol client that receives it.
///
/// The answer is produced on a Swift task started as soon as the protocol is
/// created, so it is often ready by the time Foundation calls `startLoading()`,
/// which then delivers it at once. When it is not, the task stores the answer and
/// hands it over on the session's work queue: on Linux the client must be called
/// there, because Foundation's client methods read the session's task registry,
/// which only that queue may touch (calling them from another thread crashed under
/// load). The task calls `resume()` on the URL session task, which Foundation answers
/// by calling `startLoading()` again on its work queue, where the answer is
/// delivered; Foundation skips that call for a task being cancelled. On Apple
/// platforms the answer is delivered directly.
///
/// Every transition takes one lock, so an answer is delivered at most once, and
/// never while the protocol is stopped.
final class StubExchange: @unchecked Sendable {
    // @unchecked: every mutable property is read and written only while `lock` is held.

    /// What a request ends with.
    enum Outcome: Sendable {
        case response(HTTPURLResponse, Data)
        case failure(any Error)
    }

    /// What `startLoading()` must do after ``start()``.
    enum StartAction {
        /// Nothing: the answer was delivered, or is still being produced.
        case none
        /// Produce the answer again from the registry's resolution, after a suspend
        /// stopped the task that was producing it.
        case restart(StubRegistry.Resolution)
    }

    private let lock = NSLock()
    /// The protocol, held weakly: Foundation owns it until the task completes.
    private weak var urlProtocol: URLProtocol?
    private var outcome: Outcome?
    private var isStarted = false
    private var isStopped = false
    private var isDelivered = false
    private var isCancelRequested = false
    private var work: Task<Void, Never>?
    private var storedResolution: StubRegistry.Resolution?

    init(urlProtocol: URLProtocol) {
        self.urlProtocol = urlProtocol
    }

    /// Remembers the task that produces the answer, so that a stop cancels it.
    func attach(_ task: Task<Void, Never>) {
        lock.lock()
        let cancelNow = isCancelRequested || isStopped || isDelivered
        if !cancelNow {
            work = task
        }
        lock.unlock()
        if cancelNow {
            task.cancel()
        }
    }

    /// What the task that resolved the request does next.
    enum ResolvedAction {
        /// Go on to deliver the answer.
        case proceed
        /// Start a new task to deliver it: this one was cancelled by a stop, but
        /// loading has started again since.
        case respawn
        /// Nothing: loading is stopped (a restart will deliver it) or over.
        case halt
    }

    /// Keeps the registry's resolution of the request, so that a restart after a
    /// suspend answers from it without asking the registry (and using a stub) twice.
    func resolved(_ resolution: StubRegistry.Resolution, byCancelledTask isCancelled: Bool) -> ResolvedAction {
        lock.lock()
        defer { lock.unlock() }
        storedResolution = resolution
        if isStopped || isDelivered || outcome != nil {
            return .halt
        }
        return isCancelled ? .respawn : .proceed
    }

    /// Called by `startLoading()` on the session's work queue: delivers the answer
    /// if it is ready, and says whether the answer must be produced again.
    func start() -> StartAction {
        lock.lock()
        defer { lock.unlock() }
        if isDelivered {
            return .none
        }
        let wasStopped = isStopped
        isStarted = true
        isStopped = false
        if outcome != nil {
            deliverLocked()
            return .none
        }
        // Without a resolution yet, the resolving task goes on by itself.
        if wasStopped, let storedResolution {
            return .restart(storedResolution)
        }
        return .none
    }

    /// Records `outcome` as the answer, unless one was recorded already, and has it
    /// delivered if loading has started.
    ///
    /// With `cancellingWork`, the task still producing an answer is cancelled, for
    /// when the scope ends first. With `isOnWorkQueue`, the caller is
    /// `startLoading()` itself, which delivers at once.
    func complete(with outcome: Outcome, cancellingWork: Bool = false, isOnWorkQueue: Bool = false) {
        lock.lock()
        guard self.outcome == nil, !isDelivered else {
            lock.unlock()
            return
        }
        self.outcome = outcome
        var work: Task<Void, Never>?
        if cancellingWork {
            isCancelRequested = true
            work = self.work
            self.work = nil
        }
        let isDeliverable = isStarted && !isStopped
        #if canImport(FoundationNetworking)
        let task = isDeliverable ? urlProtocol?.task : nil
        let deliverHere = isDeliverable && (task == nil || isOnWorkQueue)
        #else
        let deliverHere = isDeliverable
        #endif
        if deliverHere {
            deliverLocked()
        }
        lock.unlock()
        work?.cancel()
        #if canImport(FoundationNetworking)
        if let task, !deliverHere, task.state == .running {
            // Foundation calls startLoading() again on the session's work queue.
            task.resume()
        }
        #endif
    }

    /// Hands the recorded outcome to the client; the caller holds `lock`.
    private func deliverLocked() {
        guard let outcome, let urlProtocol else { return }
        isDelivered = true
        work = nil
        guard let client = urlProtocol.client else { return }
        if let state = urlProtocol.task?.state, state == .canceling || state == .completed {
            return
        }
        switch outcome {
        case let .response(response, body):
            client.urlProtocol(urlProtocol, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !body.isEmpty {
                // One chunk: on Linux, data(for:) and completion handlers keep only the last one.
                client.urlProtocol(urlProtocol, didLoad: body)
            }
            client.urlProtocolDidFinishLoading(urlProtocol)
        case let .failure(error):
            client.urlProtocol(urlProtocol, didFailWithError: error)
        }
    }

    /// Whether an outcome was recorded (delivered or not).
    var hasOutcome: Bool {
        lock.lock()
        defer { lock.unlock() }
        return outcome != nil
    }

    /// Stops loading (a cancel or a suspend): nothing is delivered until loading
    /// starts again, and the task producing the answer is cancelled unless the
    /// answer is already known.
    ///
    /// Called on Foundation's work queue, so the task is cancelled from another
    /// thread: cancelling runs the task's cancellation handlers at once, and one of
    /// them (a computed response awaiting a request of its own, say) may wait for
    /// that very queue.
    func stop() {
        lock.lock()
        isStopped = true
        var work: Task<Void, Never>?
        if outcome == nil {
            work = self.work
            self.work = nil
        }
        lock.unlock()
        if let work {
            Task.detached { work.cancel() }
        }
    }
}
