#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The response head (status and header fields, as an `HTTPURLResponse`) a fixed
/// stub last answered with, kept for the URL it was built for (``LastURLValue``).
///
/// Building an `HTTPURLResponse` is the largest single cost of answering a fixed
/// response: Foundation checks and canonicalises every header field. Tests ask a
/// stub for the same URL again and again, so each fixed stub keeps the head it
/// built last and gives it again for the same URL. The response is immutable, so
/// requests can share it; a request for another URL (or for a URL relative to a
/// base, whose `url` is more than its text) gets a head of its own.
typealias HeadCache = LastURLValue<HTTPURLResponse?>
