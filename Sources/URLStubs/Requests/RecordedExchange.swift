#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A request a scope received, with what answered it and how it ended.
///
/// Read a scope's exchanges with ``StubScope/exchanges``: they are its request log
/// (``StubScope/requests``) with the other half of each conversation, the exchanges
/// a failure report or a cassette writes down.
public struct RecordedExchange: Sendable {
    /// How a request ended, as far as the scope knows.
    public enum Outcome: Sendable {
        /// The answer is still being produced (a delay, a closure, the network).
        case waiting
        /// An HTTP response with its header fields and whole body.
        case response(status: Int, headers: [String: String], body: Data)
        /// The request failed with `error`: a stubbed failure, an unmatched request,
        /// a refused stub, a scope that ended first, or a network error.
        case failure(any Error)
        /// The caller cancelled the request before its answer was delivered.
        case cancelled
        /// The request's scope ended while it waited; it failed with `error`.
        case abandoned(URLError)
    }

    /// What answered the request.
    public enum Source: Sendable, Hashable {
        /// The stub registered at this location.
        case stub(StubSourceLocation)
        /// An entry of the cassette at this file.
        case cassette(URL)
        /// The real network, through a passthrough or a recording scope.
        case network
        /// Nothing: no stub matched, or a matching stub refused the request.
        case none
    }

    /// The request as the scope received it.
    public let request: RecordedRequest
    /// How the request ended.
    public let outcome: Outcome
    /// What answered the request.
    public let source: Source
    /// When the request arrived, on its scope's clock, counted from the scope's
    /// opening.
    public let startedAt: Duration
    /// When the request ended, on its scope's clock, counted from the scope's
    /// opening; `nil` while it waits.
    public let endedAt: Duration?
}

extension RecordedExchange: CustomStringConvertible {
    /// The exchange written as `METHOD URL -> status`, `-> failed: …` or `-> cancelled`.
    public var description: String {
        switch outcome {
        case .waiting: "\(request) -> waiting"
        case let .response(status, _, body): "\(request) -> \(status) (\(body.count) bytes)"
        case let .failure(error): "\(request) -> failed: \(error.localizedDescription)"
        case .cancelled: "\(request) -> cancelled"
        case .abandoned: "\(request) -> abandoned when its scope ended"
        }
    }
}

extension RecordedExchange.Outcome {
    /// The outcome `response` gives a request made with `method`.
    init(_ response: StubResponse, method: String) {
        switch response.kind {
        case let .http(status, headers, body):
            self = .response(status: status, headers: headers, body: method == "HEAD" ? Data() : body)
        case let .stream(status, headers, stream):
            // A stream's outcome is written when it ends; this is what a HEAD request
            // gets, and what the stream would deliver whole.
            self = .response(status: status, headers: headers, body: method == "HEAD" ? Data() : stream.knownBody ?? Data())
        case let .failure(error):
            self = .failure(error)
        case let .sequence(responses):
            self.init(responses[0], method: method)
        case let .refused(reason):
            self = .failure(StubFailure.error(reason, url: nil))
        }
    }

    /// Whether the request is still waiting for its answer.
    var isWaiting: Bool {
        if case .waiting = self { return true }
        return false
    }
}
