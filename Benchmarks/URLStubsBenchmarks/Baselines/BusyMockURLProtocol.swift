#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The static-dictionary protocol doing a fixed amount of extra work before it
/// answers: the reference that shows what a known cost per request reads as in the
/// paired ratios on this machine.
///
/// `startLoading()` first does ``extraMicroseconds`` of work in user code
/// (``UserSpaceWork``), then answers exactly as ``DictionaryMockURLProtocol`` does.
/// ``BriefBusyMockURLProtocol`` does less, to show how little extra work a ratio
/// goal leaves room for.
class BusyMockURLProtocol: URLProtocol {
    /// The CPU time each request spends before the answer, in microseconds.
    class var extraMicroseconds: Int { 5 }

    /// The work's result, kept so that the work cannot be optimized away; touched
    /// only on the thread Foundation calls `startLoading()` on.
    private var workResult: UInt64 = 0

    /// Returns whether the table has an answer for the request's URL, as
    /// ``DictionaryMockURLProtocol`` does.
    override class func canInit(with request: URLRequest) -> Bool {
        DictionaryMockURLProtocol.canInit(with: request)
    }

    /// Returns `request` unchanged.
    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Works for ``extraMicroseconds`` in user code, then answers from the table.
    override func startLoading() {
        workResult = UserSpaceWork.perform(microseconds: type(of: self).extraMicroseconds, seed: UInt64(UInt(bitPattern: ObjectIdentifier(self).hashValue)))
        DictionaryMockURLProtocol.answer(self)
    }

    /// Does nothing: the request was answered synchronously.
    override func stopLoading() {}
}

/// The busy protocol with less extra work: 2 µs per request, the low end of what
/// the template request's resolution alone costs URLStubs warm (the resolution
/// rows).
final class BriefBusyMockURLProtocol: BusyMockURLProtocol {
    /// The CPU time each request spends before the answer, in microseconds.
    override class var extraMicroseconds: Int { 2 }
}
