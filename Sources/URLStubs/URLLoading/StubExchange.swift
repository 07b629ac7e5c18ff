#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The one-shot link between a loading request and its URL protocol client.
///
/// The answer is produced on a Swift task, but on Linux the client must be called on
/// the session's work queue: Foundation's client methods read the session's task
/// registry, which only that queue may touch, and calling them from another thread
/// races with other tasks starting and finishing (a crash seen under load). So the
/// task only *stores* the outcome and then calls `resume()` on the URL session task,
/// which Foundation answers by calling `startLoading()` again on its work queue;
/// there ``deliverIfReady()`` hands the outcome to the client. Foundation skips that
/// call for a task being cancelled, so nothing is delivered after a cancellation.
/// On Apple platforms the outcome is delivered directly.
///
/// Every transition takes one lock, so an outcome is delivered at most once and
/// never after ``stop()``.
final class StubExchange: @unchecked Sendable {
    // @unchecked: every mutable property is read and written only while `lock` is held.

    /// What a request ends with.
    enum Outcome: Sendable {
        case response(HTTPURLResponse, Data)
        case failure(any Error)
    }

    private enum State {
        /// The answer is being produced.
        case waiting
        /// The answer is known and waits for the work queue.
        case ready(Outcome)
        /// The answer was delivered, or the exchange was stopped.
        case done
    }

    private let lock = NSLock()
    private var state = State.waiting
    private var urlProtocol: URLProtocol?
    private var work: Task<Void, Never>?

    init(urlProtocol: URLProtocol) {
        self.urlProtocol = urlProtocol
    }

    /// Whether the answer is still being produced.
    var isWaiting: Bool {
        lock.lock()
        defer { lock.unlock() }
        if case .waiting = state {
            return true
        }
        return false
    }

    /// Remembers the task that produces the outcome, so that a stop cancels it.
    func attach(_ task: Task<Void, Never>) {
        lock.lock()
        let isDone = if case .done = state { true } else { false }
        if !isDone {
            work = task
        }
        lock.unlock()
        if isDone {
            task.cancel()
        }
    }

    /// Records `outcome` as the answer (unless one was already recorded or the
    /// exchange was stopped) and has it delivered.
    ///
    /// With `cancellingWork`, the task still producing an answer is cancelled, for
    /// when the scope ends before the answer is ready. With `isOnWorkQueue`, the
    /// caller is `startLoading()` itself, which delivers at once.
    func complete(with outcome: Outcome, cancellingWork: Bool = false, isOnWorkQueue: Bool = false) {
        lock.lock()
        guard case .waiting = state else {
            lock.unlock()
            return
        }
        state = .ready(outcome)
        let task = urlProtocol?.task
        let work = cancellingWork ? self.work : nil
        if cancellingWork {
            self.work = nil
        }
        lock.unlock()
        work?.cancel()
        #if canImport(FoundationNetworking)
        if let task, !isOnWorkQueue {
            // Foundation calls startLoading() again on the session's work queue.
            task.resume()
            return
        }
        #endif
        deliverIfReady()
    }

    /// Hands the recorded outcome to the client, if there is one; returns whether
    /// the exchange had an outcome to deliver.
    @discardableResult
    func deliverIfReady() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard case let .ready(outcome) = state, let urlProtocol else { return false }
        state = .done
        self.urlProtocol = nil
        work = nil
        guard let client = urlProtocol.client else { return true }
        if let state = urlProtocol.task?.state, state == .canceling || state == .completed {
            return true
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
        return true
    }

    /// Stops the exchange for good: nothing is delivered after this returns, and the
    /// task producing the outcome is cancelled.
    func stop() {
        lock.lock()
        state = .done
        urlProtocol = nil
        let work = self.work
        self.work = nil
        lock.unlock()
        work?.cancel()
    }
}
