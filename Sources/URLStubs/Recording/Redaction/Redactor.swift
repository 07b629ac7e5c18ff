import Foundation

/// Applies a ``Redaction`` to cassette entries and remembers every value it removed,
/// for the leak scan that follows.
struct Redactor {
    /// A value a rule removed, and where it was.
    struct Removal {
        var value: String
        /// Where it was, in words: `the request header Authorization of entry 1`.
        var origin: String
    }

    private let redaction: Redaction
    private let expressions: [(Redaction.Rule, NSRegularExpression)]
    private(set) var removals: [Removal] = []

    /// A redactor for `redaction`; throws when a pattern rule is not a valid
    /// regular expression.
    init(_ redaction: Redaction) throws(CassetteError) {
        self.redaction = redaction
        var expressions: [(Redaction.Rule, NSRegularExpression)] = []
        for rule in redaction.rules {
            guard let pattern = rule.expression else { continue }
            do {
                expressions.append((rule, try NSRegularExpression(pattern: pattern)))
            } catch {
                throw CassetteError.invalidRule(rule: rule.description, reason: "it is not a valid regular expression (\(error.localizedDescription))")
            }
        }
        self.expressions = expressions
    }

    /// `entries` with every value the rules choose replaced by the placeholder.
    mutating func redact(_ entries: [CassetteEntry]) -> [CassetteEntry] {
        entries.enumerated().map { index, entry in redact(entry, number: index + 1) }
    }

    private mutating func redact(_ entry: CassetteEntry, number: Int) -> CassetteEntry {
        var entry = entry
        let name = "entry \(number)"
        entry.url = redactURL(entry.url, of: name)
        entry.requestHeaders = redact(entry.requestHeaders, origin: "request header", of: name)
        if let body = entry.requestBody {
            entry.requestBody = redactBody(body, headers: &entry.requestHeaders, origin: "the request body of \(name)")
        }
        switch entry.answer {
        case let .response(status, headers, body):
            var headers = redact(headers, origin: "response header", of: name)
            let body = redactBody(body, headers: &headers, origin: "the response body of \(name)")
            entry.answer = .response(status: status, headers: headers, body: body)
        case let .failure(code, message):
            // A failure's text quotes the request (its URL, its headers in near misses).
            entry.answer = .failure(code: code, message: scrub(message))
        }
        return entry
    }

    /// `text` with every value removed so far, in each spelling that can be cut
    /// out, replaced by the placeholder.
    func scrub(_ text: String) -> String {
        let removed = removals.map { LeakScan.Secret(value: $0.value, origin: $0.origin) }
        return SecretSearch(removed).mask(text, with: Redaction.placeholder)
    }

    private func removes(_ kind: Redaction.Field.Kind, _ value: String) -> Bool {
        let field = Redaction.Field(kind: kind, value: value)
        return redaction.rules.contains { $0.removes(field) }
    }

    private mutating func remove(_ value: String, origin: String) -> String {
        if value != Redaction.placeholder, !value.isEmpty {
            removals.append(Removal(value: value, origin: origin))
        }
        return Redaction.placeholder
    }

    private mutating func redact(_ fields: [CassetteEntry.Field], origin: String, of name: String) -> [CassetteEntry.Field] {
        fields.map { field in
            var field = field
            if removes(.header(field.name), field.value) {
                field.value = remove(field.value, origin: "the \(origin) \(field.name) of \(name)")
            } else {
                field.value = applyExpressions(field.value, origin: "the \(origin) \(field.name) of \(name)")
            }
            return field
        }
    }

    /// The URL with its user information and removed query values replaced,
    /// keeping every other byte.
    private mutating func redactURL(_ url: String, of name: String) -> String {
        var result = url
        if let components = URLComponents(string: url), let user = components.percentEncodedUser {
            let credentials = user + (components.percentEncodedPassword.map { ":" + $0 } ?? "")
            if let range = result.range(of: credentials + "@") {
                _ = remove(credentials.removingPercentEncoding ?? credentials, origin: "the user information of \(name)")
                result.replaceSubrange(range, with: Redaction.placeholder + "@")
            }
        }
        if let queryStart = result.firstIndex(of: "?") {
            let url = result
            let fragmentStart = url[queryStart...].firstIndex(of: "#") ?? url.endIndex
            let query = url[url.index(after: queryStart)..<fragmentStart]
            let items = redactForm(query, origin: "of \(name)")
            result = String(url[..<queryStart]) + "?" + items + url[fragmentStart...]
        }
        return applyExpressions(result, origin: "the URL of \(name)")
    }

    /// `form` (`name=value&…`, a query or a form-encoded body) with the values the
    /// rules remove, by their items' names, replaced.
    private mutating func redactForm(_ form: Substring, origin: String) -> String {
        form.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "=") else { return String(item) }
            let rawName = item[..<equals]
            let rawValue = item[item.index(after: equals)...]
            let name = Self.decode(rawName)
            let value = Self.decode(rawValue)
            guard removes(.queryItem(name), value) else { return String(item) }
            _ = remove(value, origin: "the item \(name) \(origin)")
            if value != String(rawValue) {
                _ = remove(String(rawValue), origin: "the item \(name) \(origin)")
            }
            return rawName + "=" + Redaction.placeholder
        }.joined(separator: "&")
    }

    /// `body` with the values the rules choose replaced, read through its
    /// `Content-Encoding` (a decoded body is written decoded, without the header),
    /// or a marker saying why it was not written when it cannot be read for the
    /// rules that apply to it. `headers` get the new `Content-Length`.
    private mutating func redactBody(_ body: Data, headers: inout [CassetteEntry.Field], origin: String) -> Data {
        var redacted: Data
        switch ContentCoding.decode(body, contentEncoding: CassetteEntry.value(of: "Content-Encoding", in: headers)) {
        case let .plain(data):
            redacted = data
        case let .decoded(data):
            redacted = data
            headers.removeAll { $0.name.caseInsensitiveCompare("Content-Encoding") == .orderedSame }
        case let .undecodable(reason):
            headers.removeAll { $0.name.caseInsensitiveCompare("Content-Encoding") == .orderedSame }
            redacted = Self.marker(reason)
            markedBodies += 1
        }
        if case let .failure(failure) = redactStructured(&redacted, contentType: CassetteEntry.value(of: "Content-Type", in: headers), origin: origin) {
            redacted = Self.marker(failure.reason)
            markedBodies += 1
        }
        if !expressions.isEmpty, let text = String(data: redacted, encoding: .utf8) {
            let replaced = applyExpressions(text, origin: origin)
            if replaced != text {
                redacted = Data(replaced.utf8)
            }
        }
        if redacted != body, let index = headers.firstIndex(where: { $0.name.caseInsensitiveCompare("Content-Length") == .orderedSame }) {
            headers[index].value = String(redacted.count)
        }
        return redacted
    }

    /// How many bodies were replaced by a marker.
    private(set) var markedBodies = 0

    /// The text that replaces a body that could not be read for redaction.
    static func marker(_ reason: String) -> Data {
        Data(RecordingMessages.unreadableBody(reason).utf8)
    }

    /// Redacts `body` in place as the structure it has (JSON, a form); fails with
    /// the reason when it looks like JSON but cannot be parsed.
    private mutating func redactStructured(_ body: inout Data, contentType: String?, origin: String) -> Result<Void, BodyFailure> {
        let type = contentType?.lowercased() ?? ""
        if Self.looksLikeJSON(body) || (type.contains("json") && !body.isEmpty) {
            let json: Any
            do {
                json = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
            } catch {
                return .failure(BodyFailure(reason: "it looks like JSON but cannot be parsed (\(Self.describeJSONError(error)))"))
            }
            var changed = false
            let rewritten = redactJSON(json, path: [], origin: origin, changed: &changed)
            if changed {
                guard let data = try? JSONSerialization.data(withJSONObject: rewritten, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]) else {
                    return .failure(BodyFailure(reason: "its redacted JSON cannot be written"))
                }
                body = data
            }
        } else if let text = String(data: body, encoding: .utf8), text.contains("=") {
            // A form-encoded body: its items are redacted by name, like a query's.
            let trimmed = text.trimmingCharacters(in: .newlines)
            if !trimmed.contains(where: \.isNewline) {
                let rewritten = redactForm(Substring(trimmed), origin: "in " + origin)
                if rewritten != trimmed {
                    body = Data((rewritten + text[text.index(text.startIndex, offsetBy: trimmed.count)...]).utf8)
                }
            }
        }
        return .success(())
    }

    struct BodyFailure: Error {
        let reason: String
    }

    /// Whether `body`'s first character (after a byte-order mark and white space)
    /// opens a JSON object or array.
    static func looksLikeJSON(_ body: Data) -> Bool {
        var bytes = body[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = bytes.dropFirst(3)
        }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    private static func describeJSONError(_ error: any Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    }

    private mutating func redactJSON(_ value: Any, path: [String], origin: String, changed: inout Bool) -> Any {
        switch value {
        case let object as [String: Any]:
            var copy = object
            for (key, member) in object {
                copy[key] = redactJSON(member, path: path + [key], origin: origin, changed: &changed)
            }
            return copy
        case let array as [Any]:
            return array.map { redactJSON($0, path: path, origin: origin, changed: &changed) }
        case let string as String where !path.isEmpty && removes(.jsonField(path), string):
            changed = true
            return remove(string, origin: "the JSON field \(path.joined(separator: ".")) in \(origin)")
        default:
            return value
        }
    }

    private mutating func applyExpressions(_ text: String, origin: String) -> String {
        var text = text
        for (rule, expression) in expressions {
            let range = NSRange(text.startIndex..., in: text)
            let matches = expression.matches(in: text, range: range)
            guard !matches.isEmpty else { continue }
            for match in matches.reversed() {
                guard let found = Range(match.range, in: text) else { continue }
                let value = String(text[found])
                guard !value.isEmpty else { continue }
                _ = remove(value, origin: "a match of the \(rule.description) rule in \(origin)")
                text.replaceSubrange(found, with: Redaction.placeholder)
            }
        }
        return text
    }

    /// The percent-decoded text (`+` stays `+`, as matching reads query items).
    private static func decode(_ text: Substring) -> String {
        text.removingPercentEncoding ?? String(text)
    }
}
