#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The one-shot link between a loading request and its URL protocol client.
///
/// An exchange delivers at most one outcome, and never after `stopLoading()`: the
/// stop and every delivery take the same lock, so a delivery either completes before
/// the stop is seen or does nothing. Client calls made while holding the lock cannot
/// deadlock, because Foundation's client methods never wait on the session's work
/// queue, which is where `stopLoading()` runs.
final class StubExchange: @unchecked Sendable {
    // @unchecked: every mutable property is read and written only while `lock` is held.

    /// What a request ends with.
    enum Outcome: Sendable {
        case response(HTTPURLResponse, Data)
        case failure(any Error)
    }

    private let lock = NSLock()
    private var urlProtocol: URLProtocol?
    private var work: Task<Void, Never>?

    init(urlProtocol: URLProtocol) {
        self.urlProtocol = urlProtocol
    }

    /// Remembers the task that produces the outcome, so that a stop cancels it.
    func attach(_ task: Task<Void, Never>) {
        lock.lock()
        let isDone = urlProtocol == nil
        if !isDone {
            work = task
        }
        lock.unlock()
        if isDone {
            task.cancel()
        }
    }

    /// Whether the exchange still waits for its outcome.
    var isPending: Bool {
        lock.withLock { urlProtocol != nil }
    }

    /// Hands `outcome` to the client, unless the exchange was stopped, cancelled or
    /// already delivered; returns whether it was handed over.
    @discardableResult
    func deliver(_ outcome: Outcome) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return deliverLocked(outcome)
    }

    /// Delivers `outcome` (unless the exchange is already done) and cancels the task
    /// that was producing the real outcome; used when the scope ends first.
    func abandon(with outcome: Outcome) {
        lock.lock()
        deliverLocked(outcome)
        let work = self.work
        self.work = nil
        lock.unlock()
        work?.cancel()
    }

    @discardableResult
    private func deliverLocked(_ outcome: Outcome) -> Bool {
        guard let urlProtocol else { return false }
        self.urlProtocol = nil
        guard let client = urlProtocol.client else { return false }
        if let state = urlProtocol.task?.state, state == .canceling || state == .completed {
            return false
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
        urlProtocol = nil
        let work = self.work
        self.work = nil
        lock.unlock()
        work?.cancel()
    }
}
