#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Sends a request the scope lets through to the real network, with a session of
/// its own that no stub intercepts.
enum LiveRequest {
    /// What the network answered, ready for the client and for the request log.
    struct Result: Sendable {
        let answer: Answer
        let outcome: RecordedExchange.Outcome
    }

    /// The unstubbed session: an ephemeral configuration without ``StubURLProtocol``
    /// (even when default configurations are intercepted), without a URL cache, and
    /// with no cookie storage, so one test's cookies never reach another's request.
    /// It follows no redirect: each hop comes back as the response it is.
    static let session = makeSession(delegate: RedirectRefusal())

    /// The same session, following redirects itself: for drift checks, which
    /// compare a stub's answer with where the server ends up.
    static let followingSession = makeSession(delegate: nil)

    private static func makeSession(delegate: (any URLSessionDelegate)?) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = (configuration.protocolClasses ?? []).filter { $0 != StubURLProtocol.self }
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// Header fields that describe one connection or one transfer encoding, not
    /// the response: the body is handed over whole.
    static let transferHeaders: Set<String> = ["connection", "keep-alive", "transfer-encoding", "content-length"]

    /// The content codings URLSession undoes before it hands a body over (libcurl's
    /// on Linux, which fails a response in a coding it does not know).
    static let codingsURLSessionDecodes: Set<String> = ["gzip", "x-gzip", "deflate", "br", "identity"]

    /// The header fields of a live response as they are recorded: without those
    /// of its connection and transfer, and without its `Content-Encoding` when
    /// URLSession decoded the body. A coding URLSession leaves as it is (`zstd`, on
    /// Apple platforms) keeps its label, so that redaction does not take the
    /// still-encoded body for a readable one: it replaces it with a marker.
    static func recordedHeaders(_ fields: [AnyHashable: Any]) -> [String: String] {
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in fields where !transferHeaders.contains(name.lowercased()) {
            if name.caseInsensitiveCompare("Content-Encoding") == .orderedSame {
                let codings = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                if codings.allSatisfy(codingsURLSessionDecodes.contains) {
                    continue
                }
            }
            headers[name] = value
        }
        return headers
    }

    /// Sends `request` (its method, headers, body and timeout) and returns the real
    /// status, headers and body, or the network's error.
    ///
    /// A redirect is the answer, as the server sent it (status, `Location`, body):
    /// the client follows it as it follows a stubbed one, each hop a request of its
    /// own in the scope, so that each is logged and recorded, and the final
    /// response carries the final URL. With `followingRedirects` the session
    /// follows them instead and the answer is the last response, delivered for the
    /// URL that was asked for.
    static func send(_ request: RecordedRequest, followingRedirects: Bool = false) async -> Result {
        var urlRequest = request.urlRequest
        urlRequest.httpBodyStream = nil
        urlRequest.httpBody = request.body
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        do {
            let (body, response) = try await (followingRedirects ? followingSession : session).data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                let error = StubFailure.error(RecordingMessages.notHTTP(request), url: request.url)
                return Result(answer: .failure(error), outcome: .failure(error))
            }
            let headers = recordedHeaders(http.allHeaderFields)
            let stubbed = StubResponse.data(body, status: http.statusCode, headers: headers)
            return Result(answer: Answer(stubbed, for: request), outcome: RecordedExchange.Outcome(stubbed, method: request.method))
        } catch {
            return Result(answer: .failure(error), outcome: .failure(error))
        }
    }
}

/// The delegate of ``LiveRequest/session``: refuses every redirect, so that the
/// redirect response itself (with its body) ends the task.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
