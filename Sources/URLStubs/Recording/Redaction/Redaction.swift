import Foundation

/// What a recording scope removes from traffic before anything is written, and the
/// check that nothing it removed is still there.
///
/// The ``standard`` redaction replaces with ``placeholder``:
/// - the values of the `Authorization`, `Proxy-Authorization`, `Cookie` and
///   `Set-Cookie` headers;
/// - the values of headers, query items and JSON string fields (request and
///   response bodies, at any depth) whose names contain `token`, `key`, `secret`,
///   `password` or `session`, compared case-insensitively.
///
/// Add your own rules with ``adding(_:)``. Before a cassette is written, the whole
/// output is scanned: if a value a rule removed still appears anywhere else (echoed
/// in a body, in a URL, in another header), or the value of an environment variable
/// whose name looks secret appears anywhere, **nothing is written** and the test
/// fails with an error naming the entry and the field (never the value).
///
/// On replay a redacted value matches any value, so a redacted cassette replays.
public struct Redaction: Sendable {
    /// The text that replaces every removed value.
    public static let placeholder = "URLSTUBS-REDACTED"

    /// The rules, applied in order.
    public let rules: [Rule]

    /// The default rules; see the type's documentation.
    public static let standard = Redaction(rules: [.standardHeaders, .secretNames])

    /// These rules and `more`.
    public func adding(_ more: Rule...) -> Redaction {
        Redaction(rules: rules + more)
    }

    /// One way a value is chosen for removal.
    public struct Rule: Sendable {
        /// What the rule removes, as reports name it.
        public let description: String
        let removes: @Sendable (Field) -> Bool

        /// Removes the value of the header field `name` (compared case-insensitively),
        /// in requests and responses.
        public static func header(_ name: String) -> Rule {
            Rule(description: "header \(name)") { field in
                if case let .header(header) = field.kind {
                    return header.caseInsensitiveCompare(name) == .orderedSame
                }
                return false
            }
        }

        /// Removes the value of the query item `name` (compared exactly).
        public static func queryItem(_ name: String) -> Rule {
            Rule(description: "query item \(name)") { field in
                if case let .queryItem(item) = field.kind {
                    return item == name
                }
                return false
            }
        }

        /// Removes the JSON values at `path` in request and response bodies: keys
        /// joined by `.` from the top (`user.credentials.token`), where `*` stands for
        /// any one key and arrays are stepped through (`items.id` is the `id` of
        /// every element of `items`). A leading `$.` is allowed.
        public static func jsonField(_ path: String) -> Rule {
            let wanted = Self.pathComponents(path)
            return Rule(description: "JSON field \(path)") { field in
                guard case let .jsonField(components) = field.kind, components.count == wanted.count else { return false }
                return zip(components, wanted).allSatisfy { $1 == "*" || $0 == $1 }
            }
        }

        /// Removes every match of the regular expression `pattern` from URLs, header
        /// values and bodies (text bodies only).
        ///
        /// A pattern that is not a valid regular expression removes nothing and makes
        /// the recording fail with the reason, so a typo cannot leak quietly.
        public static func pattern(_ pattern: String) -> Rule {
            Rule(description: "pattern \(pattern)", expression: pattern)
        }

        /// Removes the values for which `removes` returns `true`; `description`
        /// names the rule in reports.
        public static func custom(_ description: String, _ removes: @escaping @Sendable (Field) -> Bool) -> Rule {
            Rule(description: description, removes: removes)
        }

        /// The regular expression of a ``pattern(_:)`` rule.
        let expression: String?

        init(description: String, expression: String? = nil, removes: @escaping @Sendable (Field) -> Bool = { _ in false }) {
            self.description = description
            self.expression = expression
            self.removes = removes
        }

        static let standardHeaders = Rule(description: "standard credential headers") { field in
            guard case let .header(name) = field.kind else { return false }
            return ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(name.lowercased())
        }

        static let secretNames = Rule(description: "names that look secret") { field in
            switch field.kind {
            case let .header(name), let .queryItem(name):
                return Redaction.looksSecret(name)
            case let .jsonField(path):
                return path.last.map(Redaction.looksSecret) ?? false
            }
        }

        static func pathComponents(_ path: String) -> [String] {
            var trimmed = Substring(path)
            if trimmed.hasPrefix("$.") {
                trimmed = trimmed.dropFirst(2)
            }
            return trimmed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// A value a rule may remove: where it is, and what it is.
    public struct Field: Sendable {
        /// Where a value is.
        public enum Kind: Sendable, Hashable {
            /// The value of a request or response header field with this name.
            case header(String)
            /// The value of a query item with this name.
            case queryItem(String)
            /// A JSON string value of a request or response body at this path of keys.
            case jsonField([String])
        }

        /// Where the value is.
        public let kind: Kind
        /// The value.
        public let value: String
    }

    /// The parts of a name that make it look secret wherever they are in a word
    /// (`X-Refresh-Token`, `passwordHash`, `apikey`).
    static let secretParts = ["token", "secret", "password", "passwd", "passphrase", "credential", "session", "signature", "apikey", "accesskey", "privatekey"]

    /// The words that make a name look secret when they are a whole word of it
    /// (`X-Auth`, `sig`, `DB_PASS`, `api_key`), but not inside another word
    /// (`author`, `design`, `bypass`, `keyboard`).
    static let secretWords: Set<String> = ["auth", "key", "sig", "pwd", "pass", "jwt", "sid", "otp", "pin", "csrf", "xsrf", "cookie"]

    /// Whether `name` looks secret: it contains one of ``secretParts``, or one of
    /// its words (split at anything but a letter or digit, and where a lower-case
    /// letter meets an upper-case one) is one of ``secretWords``; case-insensitively.
    static func looksSecret(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if secretParts.contains(where: { lowered.contains($0) }) {
            return true
        }
        return words(of: name).contains { secretWords.contains($0) }
    }

    /// The lower-cased words of `name`: `X-Auth_userPIN` → `x`, `auth`, `user`, `pin`.
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousIsLower = false
        for character in name {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousIsLower = false
                continue
            }
            if character.isUppercase, previousIsLower, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current += character.lowercased()
            previousIsLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
