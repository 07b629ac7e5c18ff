import Foundation

/// What a recording scope removes from exchanges before anything is written, and the
/// check that nothing it removed is still there.
///
/// The ``standard`` redaction replaces with ``placeholder``:
/// - the values of the `Authorization`, `Proxy-Authorization`, `Cookie` and
///   `Set-Cookie` headers, and the user information of URLs;
/// - the values of headers, query and fragment items, form fields (urlencoded or
///   multipart) and JSON fields (strings, and numbers of four digits or more, at
///   any depth, in JSON, NDJSON and server-sent event bodies) whose names look
///   secret (see ``looksSecret(_:)``).
///
/// Add your own rules with ``adding(_:)``. A rule you add that removes nothing in
/// a whole recording refuses the cassette: a typo in a rule must not let the
/// value it meant to remove through. Before a cassette is written, the whole
/// output is scanned: if a value a rule removed still appears anywhere else, in
/// any spelling a reader could undo, or the value of an environment variable
/// whose name looks secret appears anywhere, **nothing is written** and the test
/// fails with an error naming the entry and the field (never the value). See
/// Documentation/Redaction.md for exactly what is scanned.
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
        /// The regular expression of a ``pattern(_:)`` rule.
        let expression: String?
        /// Whether the rule is one of ``Redaction/standard``'s, which need not
        /// remove anything.
        let isStandard: Bool
        /// Why the rule cannot be used, when it cannot.
        let problem: String?
        /// Whether the rule may remove a whole JSON object or array.
        let removesContainers: Bool
        /// Whether the rule is a ``custom(_:_:)`` one, whose closure may read values.
        let isCustom: Bool

        init(
            description: String,
            expression: String? = nil,
            isStandard: Bool = false,
            problem: String? = nil,
            removesContainers: Bool = false,
            isCustom: Bool = false,
            removes: @escaping @Sendable (Field) -> Bool = { _ in false }
        ) {
            self.description = description
            self.expression = expression
            self.isStandard = isStandard
            self.problem = problem
            self.removesContainers = removesContainers
            self.isCustom = isCustom
            self.removes = removes
        }

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

        /// Removes the value of the query item, fragment item or form field `name`
        /// (compared exactly).
        public static func queryItem(_ name: String) -> Rule {
            Rule(description: "query item \(name)") { field in
                if case let .queryItem(item) = field.kind {
                    return item == name
                }
                return false
            }
        }

        /// Removes the URL path segment that follows a segment equal to `name`:
        /// `.pathSegment(after: "accounts")` turns `/v1/accounts/ACCT-1/history`
        /// into `/v1/accounts/URLSTUBS-REDACTED/history`. On replay a redacted
        /// segment matches any segment.
        public static func pathSegment(after name: String) -> Rule {
            Rule(description: "path segment after \(name)") { field in
                if case let .pathSegment(previous) = field.kind {
                    return previous == name
                }
                return false
            }
        }

        /// Removes the fragment of URLs (what follows `#`), whole.
        public static let fragment = Rule(description: "fragment") { field in
            field.kind == .fragment
        }

        /// Removes the JSON values at `path` in request and response bodies (JSON,
        /// NDJSON lines, server-sent event data): strings, numbers, and whole
        /// objects or arrays.
        ///
        /// A path is keys joined by `.` from the top (`user.credentials.token`),
        /// optionally after `$` or `$.`; `*` is any one key, `[*]` any one array
        /// element, `[2]` the third, `['a key']` a key with dots or spaces. An
        /// array met where the path names a key is stepped through (`items.id` is
        /// the `id` of every element of `items`, like `items[*].id`).
        ///
        /// A path that cannot be read makes the recording fail with the reason.
        public static func jsonField(_ path: String) -> Rule {
            switch JSONPath.parse(path) {
            case let .success(parsed):
                return Rule(description: "JSON field \(path)", removesContainers: true) { field in
                    guard let steps = field.jsonPath else { return false }
                    if case .jsonField = field.kind { return parsed.matches(steps) }
                    return false
                }
            case let .failure(problem):
                return Rule(description: "JSON field \(path)", problem: "it is not a JSON path URLStubs can read: \(problem.reason)")
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

        /// Whether the rule picks values by what they hold (a pattern, or a
        /// custom rule's closure), not by where they are: a placeholder it left
        /// before gives it nothing to remove again.
        var readsValues: Bool {
            expression != nil || isCustom
        }

        /// Removes the values for which `removes` returns `true`; `description`
        /// names the rule in reports.
        public static func custom(_ description: String, _ removes: @escaping @Sendable (Field) -> Bool) -> Rule {
            Rule(description: description, isCustom: true, removes: removes)
        }

        static let standardHeaders = Rule(description: "standard credential headers", isStandard: true) { field in
            guard case let .header(name) = field.kind else { return false }
            return ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(name.lowercased())
        }

        static let secretNames = Rule(description: "names that look secret", isStandard: true) { field in
            switch field.kind {
            case let .header(name), let .queryItem(name):
                return Redaction.looksSecret(name)
            case let .jsonField(path):
                // Numbers only from four digits: a PIN or an account number, not a count.
                guard field.value.filter(\.isNumber).count >= 4 || !field.isNumber else { return false }
                return path.last.map(Redaction.looksSecret) ?? false
            case .pathSegment, .fragment, .jsonKey:
                return false
            }
        }
    }

    /// A value a rule may remove: where it is, and what it is.
    public struct Field: Sendable {
        /// Where a value is.
        public enum Kind: Sendable, Hashable {
            /// The value of a request or response header field with this name.
            case header(String)
            /// The value of a query item, a fragment item or a form field (urlencoded
            /// or multipart) with this name.
            case queryItem(String)
            /// A JSON string or number of a request or response body at this path of
            /// keys (array positions left out).
            case jsonField([String])
            /// A key of a JSON object at this path of keys (the value is the key).
            case jsonKey([String])
            /// A URL path segment (percent-decoded) after the segment `previous`
            /// (`""` for the first).
            case pathSegment(previous: String)
            /// A URL's fragment, whole.
            case fragment
        }

        /// Where the value is.
        public let kind: Kind
        /// The value (a number as its JSON text).
        public let value: String
        /// For JSON values, the path with array positions.
        let jsonPath: [JSONStep]?
        /// Whether the value is a JSON number.
        let isNumber: Bool

        init(kind: Kind, value: String, jsonPath: [JSONStep]? = nil, isNumber: Bool = false) {
            self.kind = kind
            self.value = value
            self.jsonPath = jsonPath
            self.isNumber = isNumber
        }
    }

    /// The parts of a name that make it look secret wherever they are in a word
    /// (`X-Refresh-Token`, `passwordHash`, `apikey`).
    static let secretParts = ["authorization", "token", "secret", "password", "passwd", "passphrase", "passcode", "credential", "session", "signature", "apikey", "accesskey", "privatekey"]

    /// The words that make a name look secret when they are a whole word of it
    /// (`X-Auth`, `sig`, `DB_PASS`, `api_key`), but not inside another word
    /// (`author`, `design`, `bypass`, `keyboard`).
    static let secretWords: Set<String> = ["auth", "key", "sig", "pwd", "pass", "jwt", "sid", "otp", "pin", "csrf", "xsrf", "cookie"]

    /// Whether `name` (of a header, a query item, a form field, a JSON field or an
    /// environment variable) looks secret: it contains one of `secretParts`, or one of
    /// its words (split at anything but a letter or digit, and where a lower-case
    /// letter meets an upper-case one) is one of `secretWords`; case-insensitively.
    public static func looksSecret(_ name: String) -> Bool {
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
