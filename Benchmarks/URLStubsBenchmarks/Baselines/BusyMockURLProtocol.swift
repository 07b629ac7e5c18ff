#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The static-dictionary protocol doing a fixed amount of extra work before it
/// answers: the reference that shows what a known cost per request reads as in the
/// paired ratios on this machine.
///
/// `startLoading()` first keeps its thread busy for ``extraMicroseconds`` of the
/// thread's own CPU time, then answers exactly as ``DictionaryMockURLProtocol``
/// does. ``BriefBusyMockURLProtocol`` does less, to show how little extra work a
/// ratio goal leaves room for.
class BusyMockURLProtocol: URLProtocol {
    /// The CPU time each request spends before the answer, in microseconds.
    class var extraMicroseconds: Int { 5 }

    /// Returns whether the table has an answer for the request's URL, as
    /// ``DictionaryMockURLProtocol`` does.
    override class func canInit(with request: URLRequest) -> Bool {
        DictionaryMockURLProtocol.canInit(with: request)
    }

    /// Returns `request` unchanged.
    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Works for ``extraMicroseconds`` of this thread's CPU time, then answers from the table.
    override func startLoading() {
        let work = Int64(type(of: self).extraMicroseconds) * 1_000
        let start = ThreadCPUClock.nanoseconds()
        while ThreadCPUClock.nanoseconds() - start < work {}
        DictionaryMockURLProtocol.answer(self)
    }

    /// Does nothing: the request was answered synchronously.
    override func stopLoading() {}

    /// A session answered by this protocol, built as ``BenchmarkFixtures/baselineSession`` is.
    static let session = BenchmarkFixtures.session(answeredBy: BusyMockURLProtocol.self)
}

/// The busy protocol with less extra work: 2 µs per request, about what the
/// template request's resolution alone costs URLStubs (the resolution rows).
final class BriefBusyMockURLProtocol: BusyMockURLProtocol {
    /// The CPU time each request spends before the answer, in microseconds.
    override class var extraMicroseconds: Int { 2 }

    /// A session answered by this protocol, built as ``BenchmarkFixtures/baselineSession`` is.
    static let briefSession = BenchmarkFixtures.session(answeredBy: BriefBusyMockURLProtocol.self)
}
