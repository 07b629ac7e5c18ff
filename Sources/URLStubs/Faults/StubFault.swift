#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What a request fails with when ``StubScope/injectFaults(_:rate:faults:latency:seed:fileID:filePath:line:column:)``
/// picks it: a transport error, or an HTTP error status, instead of its stub's answer.
///
/// ```swift
/// await scope.injectFaults(rate: 0.2, faults: [.timedOut, .serviceUnavailable, .tooManyRequests(retryAfter: .seconds(2))])
/// ```
public struct StubFault: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A `URLError` with this code.
        case error(URLError.Code)
        /// An HTTP response with this status, these header fields and no body.
        case status(Int, headers: [String: String])
    }

    let kind: Kind
    /// Why the fault cannot be injected (an impossible status, a negative
    /// `Retry-After`), or `nil` when it can.
    let problem: String?

    private init(_ kind: Kind, problem: String? = nil) {
        self.kind = kind
        self.problem = problem
    }

    /// Fails the request with a `URLError` of `code`, as a broken connection would.
    public static func error(_ code: URLError.Code) -> StubFault {
        StubFault(.error(code))
    }

    /// Answers the request with `status`, the header fields `headers` and an empty
    /// body, as an overloaded server or a proxy in front of it would.
    ///
    /// A status outside 200...599 cannot be delivered: the scope reports it at the
    /// call that injects it.
    public static func status(_ status: Int, headers: [String: String] = [:]) -> StubFault {
        StubFault(.status(status, headers: headers), problem: StubResponse.problem(status: status, headers: headers))
    }

    /// `503 Service Unavailable`, with no `Retry-After`.
    public static var serviceUnavailable: StubFault {
        .status(503)
    }

    /// `429 Too Many Requests` with a `Retry-After` header of `retryAfter` in whole
    /// seconds (rounded up), as a rate-limiting server answers.
    ///
    /// A negative `retryAfter` is reported at the call that injects it.
    public static func tooManyRequests(retryAfter: Duration = .seconds(1)) -> StubFault {
        guard retryAfter >= .zero else {
            return StubFault(.status(429, headers: [:]), problem: FaultMessages.negativeRetryAfter(retryAfter))
        }
        let (seconds, attoseconds) = retryAfter.components
        return .status(429, headers: ["Retry-After": String(attoseconds > 0 ? seconds + 1 : seconds)])
    }

    /// `URLError(.timedOut)`: the server did not answer in time.
    public static var timedOut: StubFault {
        .error(.timedOut)
    }

    /// `URLError(.networkConnectionLost)`: the connection dropped mid-request.
    public static var networkConnectionLost: StubFault {
        .error(.networkConnectionLost)
    }

    /// `URLError(.notConnectedToInternet)`: the device is offline.
    public static var notConnectedToInternet: StubFault {
        .error(.notConnectedToInternet)
    }

    /// `URLError(.cannotConnectToHost)`: the server refused the connection.
    public static var cannotConnectToHost: StubFault {
        .error(.cannotConnectToHost)
    }

    /// The faults a well-behaved client retries: a timeout, a lost connection,
    /// `503` and `429` with `Retry-After: 1`; the default of `injectFaults`.
    public static var transient: [StubFault] {
        [.timedOut, .networkConnectionLost, .serviceUnavailable, .tooManyRequests()]
    }

    /// The answer this fault gives `request`; `note` (the scope's seed) ends the
    /// description of an injected error.
    func response(for request: RecordedRequest, note: String) -> StubResponse {
        switch kind {
        case let .error(code):
            .failure(StubFailure.error(FaultMessages.injectedError(request, code: code, note: note), url: request.url, code: code))
        case let .status(status, headers):
            .status(status, headers: headers)
        }
    }
}

extension StubFault: CustomStringConvertible {
    /// The fault written as `URLError.timedOut` or `status 429 (Retry-After: 2)`.
    public var description: String {
        switch kind {
        case let .error(code):
            FaultMessages.name(of: code)
        case let .status(status, headers) where headers.isEmpty:
            "status \(status)"
        case let .status(status, headers):
            "status \(status) (" + headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
        }
    }
}
