#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The errors URLStubs fails requests with: each a `URLError` whose description is
/// one of the ``FailureMessages``.
enum StubFailure {
    /// The code of every failure URLStubs makes itself.
    static let code = URLError.Code.resourceUnavailable

    /// A `URLError` of `code` carrying `message` as its description and `url` as
    /// the failing URL.
    static func error(_ message: String, url: URL?, code: URLError.Code = code) -> URLError {
        // Written out whole: a dictionary that grows by a key is copied into a larger one.
        let info: [String: Any] = if let url {
            [NSLocalizedDescriptionKey: message, NSURLErrorFailingURLErrorKey: url]
        } else {
            [NSLocalizedDescriptionKey: message]
        }
        return URLError(code, userInfo: info)
    }
}
