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
        entry.requestBody = entry.requestBody.map { redactBody($0, origin: "the request body of \(name)") }
        switch entry.answer {
        case let .response(status, headers, body):
            entry.answer = .response(
                status: status,
                headers: redact(headers, origin: "response header", of: name),
                body: redactBody(body, origin: "the response body of \(name)")
            )
        case let .failure(code, message):
            // A failure's text quotes the request (its URL, its headers in near misses).
            entry.answer = .failure(code: code, message: scrub(message))
        }
        return entry
    }

    /// `text` with every value removed so far replaced by the placeholder.
    func scrub(_ text: String) -> String {
        removals.map(\.value).sorted { $0.count > $1.count }.reduce(text) { text, value in
            value.count < LeakScan.minimumValueLength ? text : text.replacingOccurrences(of: value, with: Redaction.placeholder)
        }
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

    private mutating func redactBody(_ body: Data, origin: String) -> Data {
        var redacted = body
        if let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) {
            var changed = false
            let rewritten = redactJSON(json, path: [], origin: origin, changed: &changed)
            if changed, let data = try? JSONSerialization.data(withJSONObject: rewritten, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]) {
                redacted = data
            }
        } else if let text = String(data: body, encoding: .utf8), text.contains("="), !text.contains(where: \.isNewline) {
            // A form-encoded body: its items are redacted by name, like a query's.
            let rewritten = redactForm(Substring(text), origin: "in " + origin)
            if rewritten != text {
                redacted = Data(rewritten.utf8)
            }
        }
        guard !expressions.isEmpty, let text = String(data: redacted, encoding: .utf8) else { return redacted }
        let replaced = applyExpressions(text, origin: origin)
        return replaced == text ? redacted : Data(replaced.utf8)
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
