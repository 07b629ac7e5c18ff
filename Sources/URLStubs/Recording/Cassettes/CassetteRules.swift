#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A cassette's ``CassetteMatching``, checked and ready to compare requests with
/// entries and to make answers.
struct CassetteRules: Sendable {
    let matching: CassetteMatching
    private let ignored: [JSONFieldPath]
    private let echoed: [JSONFieldPath]

    /// - Throws: ``CassetteError/invalidMatching(rule:reason:)`` for a rule that
    ///   cannot be used.
    init(_ matching: CassetteMatching) throws(CassetteError) {
        self.matching = matching
        (ignored, echoed) = try matching.validated()
    }

    /// The standard rules: nothing to check.
    static let standard = CassetteRules(matching: .standard, ignored: [], echoed: [])

    private init(matching: CassetteMatching, ignored: [JSONFieldPath], echoed: [JSONFieldPath]) {
        self.matching = matching
        self.ignored = ignored
        self.echoed = echoed
    }

    /// The entries that answer the same requests share this key (with the method
    /// and URL): the body (as canonical JSON without the ignored fields, when it
    /// is JSON) and, when they are compared, the header fields.
    func groupKey(for entry: CassetteEntry) -> String {
        var key = ""
        switch matching.bodies {
        case .ignored:
            key = "-"
        case .json:
            if let body = entry.requestBody, let canonical = canonicalJSON(body) {
                key = "json " + String(decoding: canonical, as: UTF8.self)
            } else {
                key = entry.requestBody.map { $0.base64EncodedString() } ?? "-"
            }
        }
        if matching.headers.compared {
            let fields = comparedFields(entry.requestHeaders.map { ($0.name, $0.value) })
            key += "\n" + fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        }
        return key
    }

    /// Whether `entry` answers the requests `first` (an entry of the same group
    /// key) answers: always, unless a matcher of the user's, given `entry`'s
    /// request, says it is not `first`'s.
    func sameRequests(_ entry: CassetteEntry, _ first: CassetteEntry) -> Bool {
        guard !matching.matchers.isEmpty else { return true }
        guard let request = CassetteReplay.recordedRequest(of: entry),
              let recorded = CassetteReplay.recordedRequest(of: first)
        else { return false }
        return matching.matchers.allSatisfy { $0.matches(request, recorded) }
    }

    /// `body` as JSON with sorted keys and without the ignored fields, or `nil`
    /// when it is not JSON.
    private func canonicalJSON(_ body: Data) -> Data? {
        guard var value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return nil }
        for path in ignored {
            value = path.removing(from: value)
        }
        return try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }

    /// Whether the body `actual` matches the `recorded` one under the rules.
    func body(_ actual: Data?, matches recorded: Data?) -> Bool {
        switch matching.bodies {
        case .ignored:
            return true
        case .json:
            guard !ignored.isEmpty,
                  let actual, let recorded,
                  let strippedActual = canonicalJSON(actual),
                  let strippedRecorded = canonicalJSON(recorded)
            else { return Redaction.body(actual, matches: recorded) }
            return Redaction.body(strippedActual, matches: strippedRecorded)
        }
    }

    /// The compared header fields of `fields`, by lowercased name, sorted.
    private func comparedFields(_ fields: [(String, String)]) -> [(name: String, value: String)] {
        fields
            .map { (name: $0.0.lowercased(), value: $0.1) }
            .filter { !matching.headers.except.contains($0.name) }
            .sorted { ($0.name, $0.value) < ($1.name, $1.value) }
    }

    /// Whether the request's header fields are the recorded ones under the rules
    /// (always, when headers are not compared).
    func headers(_ actual: [String: String], match recorded: [CassetteEntry.Field]) -> Bool {
        guard matching.headers.compared else { return true }
        let given = comparedFields(actual.map { ($0.key, $0.value) })
        let expected = comparedFields(recorded.map { ($0.name, $0.value) })
        guard given.count == expected.count else { return false }
        return zip(given, expected).allSatisfy { $0.name == $1.name && Redaction.value($0.value, matches: $1.value) }
    }

    /// Whether the answer must be made for each request (it takes fields from it).
    var echoes: Bool {
        !echoed.isEmpty
    }

    /// `response` with the echoed fields taken from the JSON body of `request`: in
    /// the answer's body when it is JSON, or in each server-sent event whose `data`
    /// is one line of JSON (the streamed answers of MCP); any other answer as it is.
    func answer(_ response: StubResponse, to request: RecordedRequest) -> StubResponse {
        guard !echoed.isEmpty, case let .http(status, headers, body) = response.kind,
              let requestBody = request.body,
              let source = try? JSONSerialization.jsonObject(with: requestBody, options: [.fragmentsAllowed])
        else { return response }
        let echoedBody: Data?
        if let target = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) {
            echoedBody = echo(from: source, into: target)
        } else {
            echoedBody = echoIntoEvents(from: source, body)
        }
        guard let echoedBody else { return response }
        // The recorded length is the recorded body's: the new body gets its own.
        return .data(echoedBody, status: status, headers: headers.filter { $0.key.caseInsensitiveCompare("Content-Length") != .orderedSame })
    }

    /// `target` with the echoed fields taken from `source`, encoded with sorted keys.
    private func echo(from source: Any, into target: Any) -> Data? {
        var target = target
        for path in echoed {
            target = path.echoing(from: source, into: target)
        }
        return try? JSONSerialization.data(withJSONObject: target, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
    }

    /// The server-sent events of `body` with the echoed fields taken from `source`
    /// in each `data:` line that is JSON, or `nil` when no line is.
    private func echoIntoEvents(from source: Any, _ body: Data) -> Data? {
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        var changed = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("data:") else { return String(line) }
            var payload = line.dropFirst(5)
            if payload.first == " " {
                payload = payload.dropFirst()
            }
            let carriageReturn = payload.last == "\r"
            if carriageReturn {
                payload = payload.dropLast()
            }
            guard let target = try? JSONSerialization.jsonObject(with: Data(payload.utf8), options: [.fragmentsAllowed]),
                  let echoed = echo(from: source, into: target)
            else { return String(line) }
            changed = true
            return "data: " + String(decoding: echoed, as: UTF8.self) + (carriageReturn ? "\r" : "")
        }
        return changed ? Data(lines.joined(separator: "\n").utf8) : nil
    }
}
