#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The value last made for a URL, given again while the next URL asked about is
/// the same: tests ask for the same URLs over and over, so one slot is enough.
///
/// Only URLs without a base are kept, so that the text compared is all there is
/// to them. Safe to use from any thread.
final class LastURLValue<Value: Sendable>: Sendable {
    private let last = Locked<(url: String, value: Value)?>(nil)

    /// The value for `url`: the one kept, when it was made for the same URL text,
    /// else the one `make` makes now from the URL's absolute text (kept for the
    /// next call).
    func value(for url: URL, make: (String) -> Value) -> Value {
        let text = url.absoluteString
        guard url.baseURL == nil else { return make(text) }
        if let kept = last.withLock({ $0 }), kept.url == text {
            return kept.value
        }
        let value = make(text)
        last.withLock { $0 = (text, value) }
        return value
    }
}
