/// Why waiting for a request (``StubScope/waitForRequest(matching:timeout:)``,
/// ``StubScope/waitForRequests(matching:count:timeout:)``) ended without one.
///
/// Every field is a value a test can check: the pattern, the scope, the matching
/// requests that did arrive and every request the scope received.
public struct RequestWaitError: Error, Sendable {
    /// Why the wait ended.
    public enum Reason: Sendable, Hashable {
        /// Fewer matching requests than awaited arrived within the timeout.
        case timedOut
        /// The scope ended while waiting (or had ended before the wait began).
        case scopeEnded
        /// The waiting task was cancelled.
        case cancelled
        /// The timeout was negative, so there was nothing to wait for.
        case negativeTimeout
    }

    /// Why the wait ended.
    public let reason: Reason
    /// The pattern the awaited requests were to match.
    public let pattern: RequestPattern
    /// The scope the wait was in.
    public let scope: StubScope
    /// How many matching requests the wait was for.
    public let expected: Int
    /// The matching requests that arrived before the wait ended, in order.
    public let arrived: [RecordedRequest]
    /// Every request the scope had received when the wait timed out, in order;
    /// empty for the other reasons.
    public let received: [RecordedRequest]
    /// The timeout the wait was given.
    public let timeout: Duration
    /// The scope written for messages (its name and where it was opened, when known).
    let scopeTitle: String

    init(_ reason: Reason, pattern: RequestPattern, scope: StubScope, scopeTitle: String? = nil, expected: Int, arrived: [RecordedRequest] = [], received: [RecordedRequest] = [], timeout: Duration) {
        self.reason = reason
        self.pattern = pattern
        self.scope = scope
        self.scopeTitle = scopeTitle ?? scope.description
        self.expected = expected
        self.arrived = arrived
        self.received = received
        self.timeout = timeout
    }
}

extension RequestWaitError: CustomStringConvertible {
    /// A sentence saying what was awaited and why the wait ended.
    public var description: String {
        switch reason {
        case .timedOut:
            let seen = received.isEmpty ? "it received no requests" : "it received: " + received.map(\.description).joined(separator: ", ")
            let what = expected == 1 ? "no request matching \(pattern) arrived" : "\(arrived.count) of \(expected) requests matching \(pattern) arrived"
            return "URLStubs: \(what) in \(scopeTitle) within \(timeout); \(seen)."
        case .scopeEnded:
            return "URLStubs: \(scopeTitle) ended while waiting for a request matching \(pattern)."
        case .cancelled:
            return "URLStubs: the wait for a request matching \(pattern) was cancelled."
        case .negativeTimeout:
            return "URLStubs: cannot wait for a request matching \(pattern) with a negative timeout (\(timeout)); pass .zero to check without waiting."
        }
    }
}
