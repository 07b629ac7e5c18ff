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
///
/// A value is an object (`Value` is a class), and `nil` is kept as a value too:
/// a URL without a target is not parsed again either.
final class LastURLValue<Value: AnyObject & Sendable>: Sendable {
    private let last = Locked(LastURLSlot())

    /// The value for `url`: the one kept, when it was made for the same URL text,
    /// else the one `make` makes now from the URL's absolute text (kept for the
    /// next call).
    func value(for url: URL, make: (String) -> Value?) -> Value? {
        let text = url.absoluteString
        guard url.baseURL == nil else { return make(text) }
        // Compared under the lock: only a value given again leaves it, not the slot.
        let kept = last.withLock { slot -> (isKept: Bool, value: (any AnyObject & Sendable)?) in
            slot.url == text ? (true, slot.value) : (false, nil)
        }
        if kept.isKept {
            // Stored as a `Value` below, and only as one. (A debug build checks the
            // cast, a call far cheaper than the generic tuple the slot replaced.)
            return kept.value.map { unsafeDowncast($0, to: Value.self) }
        }
        let value = make(text)
        last.withLock { $0 = LastURLSlot(url: text, value: value) }
        return value
    }
}

/// The URL text a ``LastURLValue`` was last asked about and the value made for it
/// (`nil` too is a value made: a URL with no target).
///
/// Not generic, and the value a plain reference: an optional tuple holding a
/// generic value went through the runtime's tuple metadata at every look in a
/// debug build (where tests run).
private struct LastURLSlot: Sendable {
    var url: String?
    var value: (any AnyObject & Sendable)?
}

/// The response head (status and header fields, as an `HTTPURLResponse`) a fixed
/// stub last answered with, kept for the URL it was built for (``LastURLValue``).
///
/// Building an `HTTPURLResponse` is the largest single cost of answering a fixed
/// response: Foundation checks and canonicalises every header field. Tests ask a
/// stub for the same URL again and again, so each fixed stub keeps the head it
/// built last and gives it again for the same URL. The response is immutable, so
/// requests can share it; a request for another URL (or for a URL relative to a
/// base, whose `url` is more than its text) gets a head of its own.
typealias HeadCache = LastURLValue<HTTPURLResponse>

extension RequestTarget {
    /// The last URL a request was parsed from, with its target.
    private static let lastParsed = LastURLValue<RequestTarget>()

    /// The target of a request's `url`: the one parsed for the previous request
    /// when its text is the same (tests ask for the same URL again and again),
    /// else parsed now and kept for the next.
    static func of(requestURL url: URL) -> RequestTarget? {
        lastParsed.value(for: url) { RequestTarget.of(absoluteString: $0) }
    }
}
