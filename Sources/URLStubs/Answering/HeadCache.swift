#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The response head (status and header fields, as an `HTTPURLResponse`) a fixed
/// stub last answered with, kept for the URL it was built for.
///
/// Building an `HTTPURLResponse` is the largest single cost of answering a fixed
/// response: Foundation checks and canonicalises every header field. Tests ask a
/// stub for the same URL again and again, so each fixed stub keeps the head it
/// built last and gives it again for the same URL. The response is immutable, so
/// requests can share it; a request for another URL (or for a URL relative to a
/// base, whose `url` is more than its text) gets a head of its own.
final class HeadCache: Sendable {
    private let last = Locked<(url: String, head: HTTPURLResponse)?>(nil)

    /// The head for `url`: the one kept, when it was built for the same URL, else
    /// the one `build` makes (kept for the next request).
    func head(for url: URL, build: () -> HTTPURLResponse?) -> HTTPURLResponse? {
        guard url.baseURL == nil else { return build() }
        let text = url.absoluteString
        if let kept = last.withLock({ $0 }), kept.url == text {
            return kept.head
        }
        guard let head = build() else { return nil }
        last.withLock { $0 = (text, head) }
        return head
    }
}
