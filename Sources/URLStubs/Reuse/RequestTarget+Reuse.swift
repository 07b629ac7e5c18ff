#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension RequestTarget {
    /// The last URL a request was parsed from, with its target.
    private static let lastParsed = LastURLValue<RequestTarget?>()

    /// The target of a request's `url`: the one parsed for the previous request
    /// when its text is the same (tests ask for the same URL again and again),
    /// else parsed now and kept for the next.
    static func of(requestURL url: URL) -> RequestTarget? {
        lastParsed.value(for: url) { RequestTarget(absoluteString: $0) }
    }
}
