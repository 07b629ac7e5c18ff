#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What a deferred answer's producing task hands to its connection's thread,
/// which alone writes to the socket: the head of a stream, its pieces as they
/// play, and the answer the request ended with.
final class ServedOutbox: Sendable {
    enum Event: Sendable {
        /// A stream begins: its head goes out, its body chunked.
        case head(HTTPURLResponse)
        /// A piece of a stream's body.
        case piece(Data)
        /// The request's final answer: after a stream, `.response` ends its body
        /// and anything else drops the connection.
        case done(Answer)
    }

    private let state = Locked((events: [Event](), isClosed: false))
    private let signal = DispatchSemaphore(value: 0)

    /// Queues `event` for the connection's thread; `false` once the connection
    /// has gone or the final answer was queued.
    @discardableResult
    func post(_ event: Event) -> Bool {
        let posted = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.events.append(event)
            if case .done = event {
                state.isClosed = true
            }
            return true
        }
        if posted {
            signal.signal()
        }
        return posted
    }

    /// The events queued so far, waiting up to `timeout` for one; `nil` when none came.
    func take(waiting timeout: DispatchTimeInterval) -> [Event]? {
        guard signal.wait(timeout: .now() + timeout) == .success else { return nil }
        return state.withLock { state in
            defer { state.events.removeAll() }
            return state.events
        }
    }

    /// Refuses every later event: the connection is gone.
    func close() {
        state.withLock { $0.isClosed = true }
    }
}
