#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Makes one batch of requests one after another on the calling task, timing each
/// request and the batch, and checks every answer once the batch is over.
///
/// The same function runs the baseline's batches and URLStubs' batches; only the
/// session (and so the URL protocol that answers) differs.
enum RequestTimer {
    /// How each request is made.
    enum Style: Sendable {
        /// `try await session.data(for:)`.
        case async
        /// `session.dataTask(with:completionHandler:)` and `resume()`, bridged with a
        /// continuation.
        case completionHandler
    }

    /// What a request is expected to end with.
    enum Expectation: Sendable {
        /// A response carrying exactly this body.
        case body(Data)
        /// A thrown error.
        case failure
    }

    /// Makes `count` requests through `session`, taking `requests` in turn, and
    /// returns what the batch measured.
    ///
    /// Answers are kept (bodies, or `nil` for an error) and compared with
    /// `expectation` after the batch's readings are taken, so that the check is not
    /// part of the measured cost.
    static func batch(
        _ count: Int,
        _ requests: [URLRequest],
        through session: URLSession,
        style: Style = .async,
        expecting expectation: Expectation
    ) async -> BatchSample {
        var times: [Double] = []
        times.reserveCapacity(count)
        var answers: [Data?] = []
        answers.reserveCapacity(count)
        let meter = BatchMeter()
        for index in 0..<count {
            let request = requests[index % requests.count]
            let start = Stopwatch.now()
            let answer = await answer(request, through: session, style: style)
            times.append(Stopwatch.microseconds(since: start))
            answers.append(answer)
        }
        var sample = meter.stop(requests: count, requestMicroseconds: times, unexpected: 0)
        sample.unexpected = answers.count(where: { !matches($0, expectation) })
        return sample
    }

    /// Makes one request; returns its body, or `nil` if it failed.
    @inline(__always)
    static func answer(_ request: URLRequest, through session: URLSession, style: Style) async -> Data? {
        do {
            switch style {
            case .async:
                return try await session.data(for: request).0
            case .completionHandler:
                return try await session.dataThroughCompletionHandler(for: request)
            }
        } catch {
            return nil
        }
    }

    /// Whether `answer` (a body, or `nil` for an error) is what `expectation` says.
    static func matches(_ answer: Data?, _ expectation: Expectation) -> Bool {
        switch (answer, expectation) {
        case let (data?, .body(expected)): data == expected
        case (nil, .failure): true
        default: false
        }
    }
}
