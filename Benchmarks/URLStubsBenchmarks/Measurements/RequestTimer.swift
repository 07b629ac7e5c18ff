#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Times requests through `URLSession.data(for:)` one after another, checking each
/// answer after its timing.
enum RequestTimer {
    /// What a request is expected to end with.
    enum Expectation: Sendable {
        /// A response carrying exactly this body.
        case body(Data)
        /// A thrown error.
        case failure
    }

    /// The samples of one turn of requests.
    struct Turn: Sendable {
        /// The time of each request, in microseconds.
        var microseconds: [Double] = []
        /// How many requests did not end as expected (a wrong body, an error).
        var unexpected = 0
    }

    /// Makes `count` requests for `request` through `session`, timing each one.
    static func time(_ count: Int, _ request: URLRequest, through session: URLSession, expecting expectation: Expectation) async -> Turn {
        var turn = Turn()
        turn.microseconds.reserveCapacity(count)
        for _ in 0..<count {
            let start = Stopwatch.now()
            do {
                let (data, _) = try await session.data(for: request)
                turn.microseconds.append(Stopwatch.microseconds(since: start))
                if case let .body(expected) = expectation, data == expected {
                    continue
                }
                turn.unexpected += 1
            } catch {
                turn.microseconds.append(Stopwatch.microseconds(since: start))
                if case .failure = expectation {
                    continue
                }
                turn.unexpected += 1
            }
        }
        return turn
    }
}
