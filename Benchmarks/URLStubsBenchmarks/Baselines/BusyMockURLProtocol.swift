#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The static-dictionary protocol doing a fixed amount of extra work before it
/// answers: the reference that shows what a known cost per request reads as in the
/// paired ratios on this machine.
///
/// `startLoading()` first keeps its thread busy for ``extraWork`` of the thread's
/// own CPU time, then answers exactly as ``DictionaryMockURLProtocol`` does.
final class BusyMockURLProtocol: URLProtocol {
    /// The CPU time each request spends before the answer, in microseconds.
    static let extraMicroseconds = 5
    /// The same, as a duration.
    static let extraWork: Duration = .microseconds(extraMicroseconds)

    /// Returns whether the table has an answer for the request's URL, as
    /// ``DictionaryMockURLProtocol`` does.
    override class func canInit(with request: URLRequest) -> Bool {
        DictionaryMockURLProtocol.canInit(with: request)
    }

    /// Returns `request` unchanged.
    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Works for ``extraWork`` of this thread's CPU time, then answers from the table.
    override func startLoading() {
        let (seconds, attoseconds) = Self.extraWork.components
        let work = Int64(seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
        let start = ThreadCPUClock.nanoseconds()
        while ThreadCPUClock.nanoseconds() - start < work {}
        DictionaryMockURLProtocol.answer(self)
    }

    /// Does nothing: the request was answered synchronously.
    override func stopLoading() {}

    /// A session answered by this protocol, built as ``BenchmarkFixtures/baselineSession`` is.
    static let session = BenchmarkFixtures.session(answeredBy: BusyMockURLProtocol.self)
}
