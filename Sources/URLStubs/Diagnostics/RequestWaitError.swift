/// Why waiting for a request ended without one.
public enum RequestWaitError: Error, Sendable, CustomStringConvertible {
    /// Fewer matching requests than awaited arrived within the timeout.
    case timedOut(pattern: String, expected: Int, arrived: Int, timeout: Duration, scope: String, received: [String])
    /// The scope ended while waiting.
    case scopeEnded(scope: String, pattern: String)
    /// The waiting task was cancelled.
    case cancelled(pattern: String)
    /// The timeout was negative, so there was nothing to wait for.
    case negativeTimeout(pattern: String, timeout: Duration)

    /// A sentence saying what was awaited and why the wait ended.
    public var description: String {
        switch self {
        case let .timedOut(pattern, expected, arrived, timeout, scope, received):
            let seen = received.isEmpty ? "it received no requests" : "it received: " + received.joined(separator: ", ")
            let what = expected == 1 ? "no request matching \(pattern) arrived" : "\(arrived) of \(expected) requests matching \(pattern) arrived"
            return "URLStubs: \(what) in \(scope) within \(timeout); \(seen)."
        case let .scopeEnded(scope, pattern):
            return "URLStubs: \(scope) ended while waiting for a request matching \(pattern)."
        case let .cancelled(pattern):
            return "URLStubs: the wait for a request matching \(pattern) was cancelled."
        case let .negativeTimeout(pattern, timeout):
            return "URLStubs: cannot wait for a request matching \(pattern) with a negative timeout (\(timeout)); pass .zero to check without waiting."
        }
    }
}
