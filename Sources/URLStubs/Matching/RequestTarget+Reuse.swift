#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension RequestTarget {
    /// The last URL text a request was parsed from, with its target.
    private static let lastParsed = Locked<(text: String, target: RequestTarget?)?>(nil)

    /// The target of a request's `url`: the one parsed for the previous request
    /// when its text is the same (tests ask for the same URL again and again),
    /// else parsed now and kept for the next.
    ///
    /// Only URLs without a base are kept, so that the text is all there is to them.
    static func of(requestURL url: URL) -> RequestTarget? {
        guard url.baseURL == nil else { return RequestTarget(url) }
        let text = url.absoluteString
        if let last = lastParsed.withLock({ $0 }), last.text == text {
            return last.target
        }
        let target = RequestTarget(absoluteString: text)
        lastParsed.withLock { $0 = (text, target) }
        return target
    }
}
