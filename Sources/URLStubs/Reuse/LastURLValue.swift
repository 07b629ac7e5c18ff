#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The value last made for a URL, given again while the next URL asked about is
/// the same: tests ask for the same URLs over and over, so one slot is enough.
///
/// The one kind of reuse across requests in URLStubs (this folder holds every use
/// of it: the parsed target of a request's URL, and the response head of each
/// fixed stub). Its invariant, for all of them: **a value is immutable, and is
/// keyed by the full text of a URL without a base; no scope, stub state or request
/// enters a key or a value**, so a value reused for another test's request is the
/// value that request would have got anyway. Reuse can make a request faster,
/// never different. Safe to use from any thread.
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
