#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// How a cassette's entries are matched with requests on replay, and what a
/// replayed answer takes from the request it answers.
///
/// ``standard`` matches the method, the URL (exactly its query items, in any
/// order) and the body (byte for byte, or as equal JSON), and no header field.
/// Protocols whose requests carry a value that changes every run, such as the
/// `id` of JSON-RPC, need more:
///
/// ```swift
/// let rules = CassetteMatching.standard
///     .ignoringJSONFields("id")   // match whatever id the client sends
///     .echoingJSONFields("id")    // and answer with that id
/// ```
///
/// Rules add up: a request must satisfy all of them. Entries that match the
/// same requests answer them in the order they were recorded, each once.
public struct CassetteMatching: Sendable, CustomStringConvertible {
    /// How request bodies compare.
    public enum BodyComparison: Sendable, Hashable {
        /// Byte for byte, or, when both are JSON, as equal JSON values: key order,
        /// white space and the spelling of numbers do not matter. A redacted value
        /// in the cassette matches any value.
        case json
        /// Bodies are not compared.
        case ignored
    }

    /// JSON paths left out of both bodies before they are compared.
    private(set) var ignoredJSONFields: [String] = []
    /// JSON paths whose values the answer takes from the request.
    private(set) var echoedJSONFields: [String] = []
    /// How bodies compare.
    private(set) var bodies: BodyComparison = .json
    /// Whether header fields are compared, and the names (lowercased) that are not.
    private(set) var headers: (compared: Bool, except: Set<String>) = (false, [])
    /// Matchers of the user's, with their descriptions.
    private(set) var matchers: [(description: String, matches: @Sendable (_ request: RecordedRequest, _ recorded: RecordedRequest) -> Bool)] = []

    /// Method, URL (exactly its query items, in any order) and body (byte for byte,
    /// or as equal JSON), with redacted values matching any value; no header field.
    public static let standard = CassetteMatching()

    /// The rules for JSON-RPC over HTTP (MCP, Ethereum nodes, language servers):
    /// the request's `id` is ignored when matching and echoed into the answer.
    public static let jsonRPC = standard.ignoringJSONFields("id").echoingJSONFields("id")

    /// Also leaves the JSON fields at `paths` out of both bodies when comparing
    /// them: `"id"`, `"params.cursor"`, `"$.meta.requestId"`.
    ///
    /// A path is object keys joined by dots (a leading `$.` is allowed); a path
    /// that meets an array applies to each of its elements, so `"id"` also
    /// reaches the `id` of every request in a JSON-RPC batch.
    public func ignoringJSONFields(_ paths: String...) -> CassetteMatching {
        var copy = self
        copy.ignoredJSONFields += paths
        return copy
    }

    /// Also makes each replayed answer take the values at `paths` from the JSON
    /// body of the request it answers, where both have them: the JSON-RPC `id`
    /// echo. Paths are written as for ``ignoringJSONFields(_:)``; in a batch, the
    /// request's elements and the answer's are paired in order.
    ///
    /// An answer that takes a value is re-encoded as JSON with its keys sorted; an
    /// answer of server-sent events takes them in each `data:` line that is JSON.
    /// The values are written to the cassette as they were recorded.
    public func echoingJSONFields(_ paths: String...) -> CassetteMatching {
        var copy = self
        copy.echoedJSONFields += paths
        return copy
    }

    /// Also compares the request's header fields with the recorded ones: the same
    /// names (case-insensitively) with the same values, apart from the fields
    /// named in `ignored`. A redacted value in the cassette matches any value.
    public func comparingHeaders(except ignored: String...) -> CassetteMatching {
        var copy = self
        copy.headers = (true, copy.headers.except.union(ignored.map { $0.lowercased() }))
        return copy
    }

    /// Compares bodies as `comparison` says instead.
    public func comparingBodies(_ comparison: BodyComparison) -> CassetteMatching {
        var copy = self
        copy.bodies = comparison
        return copy
    }

    /// Also requires `matches(request, recorded)` to be true: `request` is the one
    /// being answered, `recorded` the entry's request as the cassette has it.
    /// `description` names the rule in near-miss reports.
    public func matching(
        _ description: String,
        _ matches: @escaping @Sendable (_ request: RecordedRequest, _ recorded: RecordedRequest) -> Bool
    ) -> CassetteMatching {
        var copy = self
        copy.matchers.append((description, matches))
        return copy
    }

    /// The rules in words, for near-miss reports.
    public var description: String {
        var parts: [String] = []
        if bodies == .ignored { parts.append("any body") }
        if !ignoredJSONFields.isEmpty { parts.append("ignoring JSON " + ignoredJSONFields.joined(separator: ", ")) }
        if headers.compared {
            parts.append(headers.except.isEmpty ? "comparing headers" : "comparing headers except " + headers.except.sorted().joined(separator: ", "))
        }
        parts += matchers.map(\.description)
        if !echoedJSONFields.isEmpty { parts.append("echoing JSON " + echoedJSONFields.joined(separator: ", ")) }
        return parts.isEmpty ? "standard" : parts.joined(separator: ", ")
    }

    /// Whether the rules are ``standard``'s.
    var isStandard: Bool {
        ignoredJSONFields.isEmpty && echoedJSONFields.isEmpty && bodies == .json && !headers.compared && matchers.isEmpty
    }

    /// The parsed paths, checked.
    ///
    /// - Throws: ``CassetteError/invalidMatching(rule:reason:)`` naming the first
    ///   path or header name that cannot be used.
    func validated() throws(CassetteError) -> (ignored: [JSONFieldPath], echoed: [JSONFieldPath]) {
        for name in headers.except where name.isEmpty {
            throw .invalidMatching(rule: "comparingHeaders(except: \"\")", reason: RecordingMessages.emptyHeaderName)
        }
        var ignored: [JSONFieldPath] = []
        for path in ignoredJSONFields {
            do {
                ignored.append(try JSONFieldPath(parsing: path))
            } catch {
                throw .invalidMatching(rule: "ignoringJSONFields(\"\(path)\")", reason: error.reason)
            }
        }
        var echoed: [JSONFieldPath] = []
        for path in echoedJSONFields {
            do {
                echoed.append(try JSONFieldPath(parsing: path))
            } catch {
                throw .invalidMatching(rule: "echoingJSONFields(\"\(path)\")", reason: error.reason)
            }
        }
        return (ignored, echoed)
    }
}
