#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A `URLProtocolClient` that records every call, the thread it came on, and
/// whether it came while `startLoading()` was still running.
final class RecordingClient: NSObject, URLProtocolClient, @unchecked Sendable {
    // @unchecked: every property is read and written while `lock` is held.

    /// One client call.
    struct Call: Sendable, Equatable {
        /// The call's name: `response 200`, `data 5 bytes`, `finish` or `fail <code>`.
        var name: String
        /// Whether it came where the driver calls `startLoading()`: its client
        /// thread, or the queue of its network-loader mode.
        var onClientThread: Bool
        /// Whether `startLoading()` had not returned yet.
        var insideStartLoading: Bool
    }

    private let lock = NSLock()
    private var recorded: [Call] = []
    private var body = Data()
    private var inside = false
    private var failure: (any Error)?
    private var waiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextWaiter: UInt64 = 0
    /// Waiters whose timeout passed before they began waiting.
    private var expired: Set<UInt64> = []

    /// Set by the driver around `startLoading()`.
    var isInsideStartLoading: Bool {
        get { lock.lock(); defer { lock.unlock() }; return inside }
        set { lock.lock(); inside = newValue; lock.unlock() }
    }

    /// The calls so far, in order.
    var calls: [Call] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// The names of the calls so far, in order.
    var names: [String] {
        calls.map(\.name)
    }

    /// The message of the error the load failed with, if it failed.
    var failureMessage: String? {
        lock.lock()
        defer { lock.unlock() }
        return failure.map { ($0 as? URLError)?.userInfo[NSLocalizedDescriptionKey] as? String ?? "\($0)" }
    }

    /// The bytes loaded so far, as UTF-8 text.
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: body, as: UTF8.self)
    }

    /// Returns once at least `count` calls were recorded, or once `timeout` passed
    /// (the test's expectations on ``calls`` then say what is missing): a call that
    /// never comes must fail the test, not hang the run.
    func waitForCalls(_ count: Int, timeout: Duration = .patience) async {
        let id = newWaiterID()
        let expiry = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return } // Cancelled: the calls came.
            self.resumeWaiter(id)
        }
        defer { expiry.cancel() }
        await withCheckedContinuation { continuation in
            lock.lock()
            if recorded.count >= count || expired.remove(id) != nil {
                lock.unlock()
                continuation.resume()
                return
            }
            waiters.append((id, count, continuation))
            lock.unlock()
        }
    }

    private func newWaiterID() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        nextWaiter += 1
        return nextWaiter
    }

    /// Resumes the waiter `id` when its timeout passed: at once if it waits, or as
    /// soon as it would begin to.
    private func resumeWaiter(_ id: UInt64) {
        lock.lock()
        let waiter = waiters.first { $0.id == id }
        if waiter == nil {
            expired.insert(id)
        }
        waiters.removeAll { $0.id == id }
        lock.unlock()
        waiter?.continuation.resume()
    }

    private func record(_ name: String, data: Data? = nil) {
        let onClientThread = CFNetworkLikeDriver.isOnClientThread
        lock.lock()
        recorded.append(Call(name: name, onClientThread: onClientThread, insideStartLoading: inside))
        if let data {
            body.append(data)
        }
        let ready = waiters.filter { $0.count <= recorded.count }
        waiters.removeAll { $0.count <= recorded.count }
        lock.unlock()
        for waiter in ready {
            waiter.continuation.resume()
        }
    }

    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {
        record("redirect")
    }

    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {
        record("cached")
    }

    func urlProtocol(_ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy policy: URLCache.StoragePolicy) {
        record("response \((response as? HTTPURLResponse)?.statusCode ?? -1)")
    }

    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) {
        record("data \(data.count) bytes", data: data)
    }

    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) {
        record("finish")
    }

    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) {
        lock.lock()
        failure = error
        lock.unlock()
        record("fail \((error as? URLError)?.code.rawValue ?? 0)")
    }

    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {
        record("challenge")
    }

    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {
        record("challenge cancelled")
    }
}
