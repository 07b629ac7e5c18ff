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
    private let expressions: [(index: Int, rule: Redaction.Rule, expression: NSRegularExpression)]
    private(set) var removals: [Removal] = []
    /// The positions in `redaction.rules` of the rules that removed something.
    private var usedRules: Set<Int> = []

    /// The rules added to the standard ones that removed nothing.
    var unusedRules: [Redaction.Rule] {
        redaction.rules.enumerated().filter { !$0.element.isStandard && !usedRules.contains($0.offset) }.map(\.element)
    }

    /// A redactor for `redaction`; throws when a pattern rule is not a valid
    /// regular expression.
    init(_ redaction: Redaction) throws(CassetteError) {
        self.redaction = redaction
        var expressions: [(index: Int, rule: Redaction.Rule, expression: NSRegularExpression)] = []
        for (index, rule) in redaction.rules.enumerated() {
            if let problem = rule.problem {
                throw CassetteError.invalidRule(rule: rule.description, reason: problem)
            }
            guard let pattern = rule.expression else { continue }
            do {
                expressions.append((index, rule, try NSRegularExpression(pattern: pattern)))
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

    /// Whether a rule removes the value `value` at `kind`; every rule that does is
    /// counted as used.
    mutating func removes(_ kind: Redaction.Field.Kind, _ value: String, jsonPath: [JSONStep]? = nil, container: Bool = false, isNumber: Bool = false) -> Bool {
        let field = Redaction.Field(kind: kind, value: value, jsonPath: jsonPath, isNumber: isNumber)
        var removed = false
        for (index, rule) in redaction.rules.enumerated() where (!container || rule.removesContainers) && rule.removes(field) {
            usedRules.insert(index)
            removed = true
        }
        return removed
    }

    mutating func remove(_ value: String, origin: String) -> String {
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
            } else if Self.urlHeaders.contains(field.name.lowercased()) {
                // A URL's query items, user information and fragment are redacted
                // wherever the URL is written: these headers hold one.
                field.value = redactURL(field.value, of: "the \(origin) \(field.name) of \(name)")
            } else if field.name.caseInsensitiveCompare("Link") == .orderedSame {
                field.value = redactLinks(field.value, of: "the \(origin) \(field.name) of \(name)")
            } else {
                field.value = applyExpressions(field.value, origin: "the \(origin) \(field.name) of \(name)")
            }
            return field
        }
    }

    /// The header fields whose value is a URL (absolute or relative).
    static let urlHeaders: Set<String> = ["location", "content-location", "referer", "refresh"]

    /// A `Link` header's value with each `<URL>` in it redacted as a URL.
    ///
    /// The brackets are found by byte, as a client reads the header: a `<` or `>`
    /// followed by a combining mark still delimits a URL.
    private mutating func redactLinks(_ value: String, of name: String) -> String {
        var rewritten = ""
        var rest = value.utf8[...]
        while let open = rest.firstIndex(of: UInt8(ascii: "<")), let close = rest[open...].firstIndex(of: UInt8(ascii: ">")) {
            rewritten += Substring(rest[...open]) + redactURL(String(Substring(rest[rest.index(after: open)..<close])), of: name) + ">"
            rest = rest[rest.index(after: close)...]
        }
        return applyExpressions(rewritten + Substring(rest), origin: name)
    }

    /// The URL with its user information, removed path segments, query values and
    /// fragment replaced, keeping every other byte.
    private mutating func redactURL(_ url: String, of name: String) -> String {
        var result = url
        // User information is written before an `@`: a URL without one is not parsed for it.
        if url.utf8.contains(UInt8(ascii: "@")), let components = URLComponents(string: url), let user = components.percentEncodedUser {
            let credentials = user + (components.percentEncodedPassword.map { ":" + $0 } ?? "")
            if let range = result.range(of: credentials + "@") {
                _ = remove(credentials.removingPercentEncoding ?? credentials, origin: "the user information of \(name)")
                result.replaceSubrange(range, with: Redaction.placeholder + "@")
            }
        }
        // Split at the bytes a URL parser splits at, not at characters: a `#` or
        // `?` followed by a combining mark is still the delimiter, and a search
        // by character walks every grapheme of the URL (about 10,000 instructions
        // for a short one, against about 100 by byte).
        let fragment: Substring?
        (result, fragment) = Self.split(result, atFirst: UInt8(ascii: "#"))
        let query: Substring?
        (result, query) = Self.split(result, atFirst: UInt8(ascii: "?"))
        result = redactPath(result, of: name)
        if let query {
            result += "?" + redactForm(query, origin: "of \(name)")
        }
        if let fragment {
            if removes(.fragment, Self.decode(fragment)) {
                result += "#" + remove(Self.decode(fragment), origin: "the fragment of \(name)")
            } else {
                result += "#" + (fragment.utf8.contains(UInt8(ascii: "=")) ? redactForm(fragment, origin: "in the fragment of \(name)") : String(fragment))
            }
        }
        return applyExpressions(result, origin: "the URL of \(name)")
    }

    /// `url` (no query, no fragment) with the path segments the rules remove replaced.
    private mutating func redactPath(_ url: String, of name: String) -> String {
        // By bytes, as `redactURL(_:of:)` splits: the segments are what a server reads.
        let slashByte = UInt8(ascii: "/")
        let utf8 = url.utf8
        guard let authority = Self.authorityStart(in: utf8), let slash = utf8[authority...].firstIndex(of: slashByte) else { return url }
        let segments = utf8[utf8.index(after: slash)...].split(separator: slashByte, omittingEmptySubsequences: false).map(Substring.init)
        var previous = ""
        var rewritten: [String] = []
        for segment in segments {
            let value = Self.decode(segment)
            if !value.isEmpty, removes(.pathSegment(previous: previous), value) {
                rewritten.append(remove(value, origin: "the path segment after \(previous.isEmpty ? "the host" : previous) of \(name)"))
            } else {
                rewritten.append(String(segment))
            }
            previous = value
        }
        return String(Substring(utf8[...slash])) + rewritten.joined(separator: "/")
    }

    /// The index just past the first `://` of `utf8`, or `nil` when it has none:
    /// found by byte (the generic `firstRange(of:)` costs about 20,000 instructions
    /// on a short URL).
    private static func authorityStart(in utf8: String.UTF8View) -> String.Index? {
        var rest = utf8[...]
        while let colon = rest.firstIndex(of: UInt8(ascii: ":")) {
            rest = utf8[utf8.index(after: colon)...]
            if rest.starts(with: "//".utf8) {
                return utf8.index(colon, offsetBy: 3)
            }
        }
        return nil
    }

    /// `text` split at its first byte `delimiter`: what comes before it, and what
    /// comes after it (`nil` when `text` has no such byte). `delimiter` is ASCII, so
    /// both parts are whole UTF-8.
    private static func split(_ text: String, atFirst delimiter: UInt8) -> (head: String, tail: Substring?) {
        let utf8 = text.utf8
        guard let found = utf8.firstIndex(of: delimiter) else { return (text, nil) }
        return (String(Substring(utf8[..<found])), Substring(utf8[utf8.index(after: found)...]))
    }

    /// `form` (`name=value&…`, a query or a form-encoded body) with the values the
    /// rules remove, by their items' names, replaced. Items are separated by `&` or
    /// by `;` (which some servers read as `&`): an item is read either way. The
    /// separators, and each item's `=`, are found by byte, as a server splits a
    /// form: one followed by a combining mark still separates.
    mutating func redactForm(_ form: Substring, origin: String) -> String {
        var rewritten = ""
        let bytes = form.utf8
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == UInt8(ascii: "&") || bytes[index] == UInt8(ascii: ";") {
            rewritten += redactFormItem(Substring(bytes[start..<index]), origin: origin)
            rewritten.unicodeScalars.append(Unicode.Scalar(bytes[index]))
            start = bytes.index(after: index)
        }
        return rewritten + redactFormItem(Substring(bytes[start...]), origin: origin)
    }

    /// The form item `item` (`name=value`), its value replaced when a rule removes
    /// it, and otherwise redacted inside when it is JSON (a GraphQL query's
    /// `variables`) or a URL (a `redirect_uri`): written again, percent-encoded,
    /// when that changed it.
    private mutating func redactFormItem(_ item: Substring, origin: String) -> String {
        let bytes = item.utf8
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return String(item) }
        let rawName = Substring(bytes[..<equals])
        let rawValue = Substring(bytes[bytes.index(after: equals)...])
        let name = Self.decode(rawName)
        let value = Self.decode(rawValue)
        guard removes(.queryItem(name), value) else {
            guard let inner = redactedInside(value, of: name, origin: origin) else { return String(item) }
            return rawName + "=" + (inner.addingPercentEncoding(withAllowedCharacters: Self.unreservedCharacters) ?? inner)
        }
        _ = remove(value, origin: "the item \(name) \(origin)")
        if value != String(rawValue) {
            _ = remove(String(rawValue), origin: "the item \(name) \(origin)")
        }
        return rawName + "=" + Redaction.placeholder
    }

    /// The value `value` of the form item `name` with what the rules remove inside
    /// it replaced, when it is a JSON document, a URL with its own query or
    /// fragment (absolute, or a path such as a `return_to`), or a form itself (a
    /// `state` holding `access_token=…&…`); `nil` when it is none of these, or
    /// nothing in it is removed.
    private mutating func redactedInside(_ value: String, of name: String, origin: String) -> String? {
        let place = "the item \(name) \(origin)"
        var redacted = value
        if Self.looksLikeJSON(Data(value.utf8)) {
            guard case let .success(data) = redactJSONDocument(Data(value.utf8), origin: place) else { return nil }
            redacted = String(decoding: data, as: UTF8.self)
        } else if Self.authorityStart(in: value.utf8) != nil, value.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "@") }) {
            redacted = redactURL(value, of: place)
        } else if value.hasPrefix("/"), let mark = value.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            // A path with a query: the part after `?` (or `#`) read as a form.
            redacted = String(Substring(value.utf8[...mark])) + redactForm(Substring(value.utf8[value.utf8.index(after: mark)...]), origin: "in " + place)
        } else if value.utf8.contains(UInt8(ascii: "=")), Self.looksLikeForm(value) {
            redacted = redactForm(Substring(value), origin: "in " + place)
        }
        return redacted == value ? nil : redacted
    }

    /// RFC 3986's unreserved characters, and `+` (a space in a form, left as it
    /// was written): what a value written back into a form is left unescaped in.
    private static let unreservedCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+")

    /// `body` with the values the rules choose replaced, read through its
    /// `Content-Encoding` (a decoded body is written decoded, without the header),
    /// or a marker saying why it was not written when it cannot be read for the
    /// rules that apply to it. `headers` get the new `Content-Length`.
    private mutating func redactBody(_ body: Data, headers: inout [CassetteEntry.Field], origin: String) -> Data {
        let redacted = redactedContent(of: body, headers: &headers, origin: origin)
        if redacted != body, let index = headers.firstIndex(where: { $0.name.caseInsensitiveCompare("Content-Length") == .orderedSame }) {
            headers[index].value = String(redacted.count)
        }
        return redacted
    }

    /// What ``redactBody(_:headers:origin:)`` writes: the body redacted, or the
    /// first marker its reading calls for (no rule reads a marker).
    private mutating func redactedContent(of body: Data, headers: inout [CassetteEntry.Field], origin: String) -> Data {
        var redacted: Data
        switch ContentCoding.decode(body, contentEncoding: CassetteEntry.value(of: "Content-Encoding", in: headers)) {
        case let .plain(data):
            redacted = data
        case let .decoded(data):
            redacted = data
            headers.removeAll { $0.name.caseInsensitiveCompare("Content-Encoding") == .orderedSame }
        case let .undecodable(reason):
            headers.removeAll { $0.name.caseInsensitiveCompare("Content-Encoding") == .orderedSame }
            markedBodies += 1
            return Self.marker(reason)
        }
        // Compressed data the labels do not name (`application/gzip`, or none) is
        // read too, as the leak scan reads it.
        let hiddenLayers = ContentCoding.hiddenLayers(of: redacted)
        if case let .failure(failure) = redactStructured(&redacted, contentType: CassetteEntry.value(of: "Content-Type", in: headers), origin: origin) {
            markedBodies += 1
            return Self.marker(failure.reason)
        }
        // Pattern rules read text in the encoding it is written in.
        let type = (CassetteEntry.value(of: "Content-Type", in: headers) ?? "").lowercased()
        if !expressions.isEmpty, let view = Self.textView(of: redacted, contentType: type) {
            let replaced = applyExpressions(view.text, origin: origin)
            if replaced != view.text {
                guard let written = replaced.data(using: view.encoding) else {
                    markedBodies += 1
                    return Self.marker("its redacted text cannot be written back in its own encoding")
                }
                redacted = redacted.prefix(view.prefix) + written
            }
        }
        if hiddenLayers.contains(where: { holdsValuesToRemove($0, origin: origin) }) {
            markedBodies += 1
            return Self.marker(RecordingMessages.compressedDataWithSecrets)
        }
        return redacted
    }

    /// How many bodies were replaced by a marker.
    private(set) var markedBodies = 0

    /// The text that replaces a body that could not be read for redaction.
    static func marker(_ reason: String) -> Data {
        Data(RecordingMessages.unreadableBody(reason).utf8)
    }

    /// Whether the rules change `layer`, data inflated out of a body (see
    /// ``ContentCoding/hiddenLayers(of:)``), or cannot read a layer that is text;
    /// the values they would remove become known secrets for the leak scan.
    ///
    /// Only text is read: a body that is not compressed at all may inflate to a
    /// few bytes of noise, which is seldom text, and which no rule should change.
    private mutating func holdsValuesToRemove(_ layer: Data, origin: String) -> Bool {
        guard ContentCoding.isText(layer) else { return false }
        var redacted = layer
        let inside = origin + ", inside its compressed data"
        if case .failure = redactStructured(&redacted, contentType: nil, origin: inside) {
            // Text that opens like JSON but is not, such as JSON cut short: a
            // reader sees its values all the same.
            return true
        }
        if !expressions.isEmpty, let text = String(data: redacted, encoding: .utf8), applyExpressions(text, origin: inside) != text {
            return true
        }
        return redacted != layer
    }

    mutating func applyExpressions(_ text: String, origin: String) -> String {
        var text = text
        for (index, rule, expression) in expressions {
            let range = NSRange(text.startIndex..., in: text)
            let matches = expression.matches(in: text, range: range)
            guard !matches.isEmpty else { continue }
            usedRules.insert(index)
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
    static func decode(_ text: Substring) -> String {
        // Text without an escape decodes to itself: Foundation is not asked (its
        // decoding costs about 9,000 instructions a call, most calls have none).
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return text.removingPercentEncoding ?? String(text)
    }
}
