/// How many requests a stub must, and may, answer.
///
/// A stub with an upper bound answers at most that many requests and then stops
/// matching, atomically: two racing requests can never both take its last use, and
/// later requests fall through to other stubs (or fail as unmatched). A lower bound
/// is verified when the scope ends, and a shortfall is reported at the line that
/// registered the stub.
public struct StubExpectation: Sendable, Hashable {
    /// The fewest requests the stub must answer.
    public let minimum: Int
    /// The most requests the stub may answer, or `nil` for no limit.
    public let maximum: Int?
    /// Whether every request the stub answers must be cancelled by its caller
    /// before its answer arrives (``eachCancelled``).
    public let requiresCancellation: Bool

    private init(minimum: Int, maximum: Int?, requiresCancellation: Bool = false) {
        self.minimum = max(0, minimum)
        self.maximum = maximum.map { max(0, $0) }
        self.requiresCancellation = requiresCancellation
    }

    /// Exactly `count` requests: the stub answers `count` and then stops matching,
    /// and fewer is reported when the scope ends.
    public static func exactly(_ count: Int) -> StubExpectation {
        StubExpectation(minimum: count, maximum: count)
    }

    /// Exactly one request.
    public static var once: StubExpectation {
        .exactly(1)
    }

    /// At least `count` requests, with no upper limit.
    public static func atLeast(_ count: Int) -> StubExpectation {
        StubExpectation(minimum: count, maximum: nil)
    }

    /// At most `count` requests: the stub answers up to `count` and then stops
    /// matching; none at all is fine.
    public static func atMost(_ count: Int) -> StubExpectation {
        StubExpectation(minimum: 0, maximum: count)
    }

    /// No request at all: a request that matches the stub fails at once with an
    /// error naming the stub, and is reported when the scope ends.
    public static var never: StubExpectation {
        StubExpectation(minimum: 0, maximum: 0)
    }

    /// This count, with every request the stub answers cancelled by its caller
    /// before its answer arrives: for tests of timeouts and cancellation, with a
    /// delayed, streamed or computed response.
    ///
    /// ```swift
    /// await scope.stub(.get(url), with: .text("slow").delayed(by: .seconds(30)), times: .atLeast(1).eachCancelled)
    /// ```
    public var eachCancelled: StubExpectation {
        StubExpectation(minimum: minimum, maximum: maximum, requiresCancellation: true)
    }

    /// Any number of requests, including none (the default).
    public static var anyNumber: StubExpectation {
        StubExpectation(minimum: 0, maximum: nil)
    }

    /// Whether this is ``never``.
    var forbidsRequests: Bool {
        maximum == 0
    }
}

extension StubExpectation: CustomStringConvertible {
    /// The expectation in words, such as `exactly 2 requests` or `at least 1 request`.
    public var description: String {
        func requests(_ count: Int) -> String { count == 1 ? "1 request" : "\(count) requests" }
        let count = switch (minimum, maximum) {
        case (0, 0?): "no requests"
        case let (low, high?) where low == high: "exactly \(requests(low))"
        case let (0, high?): "at most \(requests(high))"
        case let (low, high?): "between \(low) and \(requests(high))"
        case (0, nil): "any number of requests"
        case let (low, nil): "at least \(requests(low))"
        }
        return requiresCancellation ? count + ", each cancelled by its caller" : count
    }
}
