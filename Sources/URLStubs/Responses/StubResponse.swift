#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What a stub answers: an HTTP response, a transport error, or a sequence of them.
///
/// Build one with the static factories (``json(_:status:headers:encoder:)``,
/// ``data(_:status:headers:)``, ``text(_:status:headers:)``, ``status(_:headers:)``,
/// ``failure(_:)-(URLError.Code)``, ``fixture(at:status:headers:)`` and
/// ``sequence(_:)``) and refine it with ``delayed(by:)``. A response that cannot be
/// delivered (an invalid status, a body that failed to encode, a fixture that cannot
/// be read, a combination Foundation on Linux cannot deliver) is *refused*: the scope
/// reports the reason and the stub answers its requests with that error at once
/// instead of hanging or reaching the network.
public struct StubResponse: Sendable {
    enum Kind: Sendable {
        /// An HTTP response with its final header fields and body.
        case http(status: Int, headers: [String: String], body: Data)
        /// An HTTP response with its final header fields and a body that arrives
        /// in pieces over time.
        case stream(status: Int, headers: [String: String], body: ResponseStream)
        /// A transport error handed to the client instead of a response.
        case failure(any Error)
        /// Responses given one per request, in order; the last one repeats.
        case sequence([StubResponse])
        /// A response that cannot be delivered, with the reason.
        case refused(String)
    }

    /// The response's parts, in one immutable object: a response is copied several
    /// times on its way from a stub to the client, and a copy is then one retain.
    /// Changing a part makes a new object (a response changes while it is built,
    /// not while it answers).
    private var parts: Parts

    /// The parts of a response.
    private final class Parts: Sendable {
        let kind: Kind
        let delay: Duration?
        let followsRedirect: Bool
        let headCache: HeadCache?

        init(kind: Kind, delay: Duration?, followsRedirect: Bool, headCache: HeadCache?) {
            self.kind = kind
            self.delay = delay
            self.followsRedirect = followsRedirect
            self.headCache = headCache
        }
    }

    /// What the response is.
    var kind: Kind {
        get { parts.kind }
        set { parts = Parts(kind: newValue, delay: parts.delay, followsRedirect: parts.followsRedirect, headCache: parts.headCache) }
    }

    /// How long to wait before answering.
    var delay: Duration? {
        get { parts.delay }
        set { parts = Parts(kind: parts.kind, delay: newValue, followsRedirect: parts.followsRedirect, headCache: parts.headCache) }
    }

    /// Whether a redirect status with a `Location` is followed inside the scope.
    var followsRedirect: Bool {
        get { parts.followsRedirect }
        set { parts = Parts(kind: parts.kind, delay: parts.delay, followsRedirect: newValue, headCache: parts.headCache) }
    }

    /// Where the head this response was last built into is kept; set by the
    /// registry on the copy a fixed stub answers with (see ``HeadCache``).
    var headCache: HeadCache? {
        get { parts.headCache }
        set { parts = Parts(kind: parts.kind, delay: parts.delay, followsRedirect: parts.followsRedirect, headCache: newValue) }
    }

    init(_ kind: Kind, delay: Duration? = nil) {
        parts = Parts(kind: kind, delay: delay, followsRedirect: true, headCache: nil)
    }

    /// Answers with `status`, the header fields `headers` and the bytes `body`.
    ///
    /// A `Content-Length` header is added unless `headers` sets one.
    public static func data(_ body: Data, status: Int = 200, headers: [String: String] = [:]) -> StubResponse {
        http(status: status, headers: headers, body: body, contentType: nil)
    }

    /// Answers with `text` encoded as UTF-8 and `Content-Type: text/plain; charset=utf-8`
    /// unless `headers` sets a content type.
    public static func text(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> StubResponse {
        http(status: status, headers: headers, body: Data(text.utf8), contentType: "text/plain; charset=utf-8")
    }

    /// Answers with `value` encoded as JSON and `Content-Type: application/json`
    /// unless `headers` sets a content type.
    ///
    /// The value is encoded once, when the response is built. If encoding fails, the
    /// response is refused and the stub reports the encoder's error.
    public static func json(
        _ value: some Encodable,
        status: Int = 200,
        headers: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) -> StubResponse {
        do {
            let body = try encoder.encode(value)
            return http(status: status, headers: headers, body: body, contentType: "application/json")
        } catch {
            return StubResponse(.refused(ResponseMessages.unencodableJSON(error)))
        }
    }

    /// Answers with the JSON text `json` as it is, and `Content-Type: application/json`
    /// unless `headers` sets a content type.
    ///
    /// Use this for a literal such as `#"{"id": 1}"#`; to answer with a JSON string
    /// value, pass it through ``json(_:status:headers:encoder:)`` with an explicit
    /// type. Text that is not valid JSON is refused, so a typo in a fixture is caught
    /// where the stub is registered.
    public static func json(_ json: String, status: Int = 200, headers: [String: String] = [:]) -> StubResponse {
        let body = Data(json.utf8)
        do {
            _ = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        } catch {
            return StubResponse(.refused(ResponseMessages.invalidJSONText(json, error: error)))
        }
        return http(status: status, headers: headers, body: body, contentType: "application/json")
    }

    /// Answers with `status`, an empty body and the header fields `headers`.
    public static func status(_ status: Int, headers: [String: String] = [:]) -> StubResponse {
        http(status: status, headers: headers, body: Data(), contentType: nil)
    }

    /// Fails the request with a `URLError` of `code`, as a failed connection would.
    public static func failure(_ code: URLError.Code) -> StubResponse {
        StubResponse(.failure(URLError(code)))
    }

    /// Fails the request with `error`, as a failed connection would.
    ///
    /// The caller of `data(for:)` or the completion handler receives `error`.
    public static func failure(_ error: any Error) -> StubResponse {
        StubResponse(.failure(error))
    }

    /// Answers the first request with the first response, the next with the next,
    /// and every request after the last with the last.
    ///
    /// An empty sequence is refused. Combine with a stub's `times:` expectation to
    /// stop matching once the sequence is used up.
    public static func sequence(_ responses: [StubResponse]) -> StubResponse {
        guard !responses.isEmpty else {
            return StubResponse(.refused(ResponseMessages.emptySequence))
        }
        return StubResponse(.sequence(responses))
    }

    /// The same response, answered after waiting `delay`.
    ///
    /// The wait does not block any thread, and cancelling the request ends it at
    /// once. A negative delay is treated as zero; a delay of any length is
    /// accepted, so `.seconds(.max)` makes a response that never comes.
    public func delayed(by delay: Duration) -> StubResponse {
        var copy = self
        copy.delay = delay > .zero ? delay : nil
        return copy
    }

    /// The response that answers a stub's `use`-th request (from 1): the `use`-th
    /// of a sequence (the last once it is used up), with the sequence's delay when
    /// it has none of its own; any other response itself. A closure's answer is
    /// its first use: a sequence it returns answers with its first response.
    func response(forUse use: Int) -> StubResponse {
        guard case let .sequence(responses) = kind else { return self }
        var next = responses[min(max(use, 1) - 1, responses.count - 1)]
        if next.delay == nil {
            next.delay = delay
        }
        return next
    }

    /// Whether the response is a sequence, one response per request.
    var isSequence: Bool {
        if case .sequence = kind { return true }
        return false
    }

    /// Whether the answer takes time: it waits for a delay, or its body arrives
    /// over time.
    var isDeferred: Bool {
        if delay != nil {
            return true
        }
        if case .stream = kind {
            return true
        }
        return false
    }

    /// A response that never comes: the request waits until its `timeoutInterval`
    /// passes on the scope's clock (then fails with `URLError.timedOut`), until it
    /// is cancelled, or until its scope ends.
    public static var noResponse: StubResponse {
        status(204).delayed(by: .seconds(Int64.max))
    }

    static func http(status: Int, headers: [String: String], body: Data, contentType: String?) -> StubResponse {
        if let problem = problem(status: status, headers: headers) {
            return StubResponse(.refused(problem))
        }
        var fields = headers
        if let contentType, !fields.containsField("Content-Type") {
            fields["Content-Type"] = contentType
        }
        if !fields.containsField("Content-Length") {
            fields["Content-Length"] = String(body.count)
        }
        return StubResponse(.http(status: status, headers: fields, body: body))
    }
}
