/// What a malformed URL pattern is told, one sentence per mistake.
enum PatternMessages {
    static let example = "write an absolute URL such as https://api.example.com/path, or a path starting with /"

    static let empty = "the URL pattern is empty"

    static func surroundingSpaces(_ source: String) -> String {
        "the URL pattern \"\(source)\" has leading or trailing spaces"
    }

    static func noScheme(_ source: String) -> String {
        "\"\(source)\" has no scheme: \(example)"
    }

    static func noHost(_ source: String) -> String {
        "\"\(source)\" has no host: \(example)"
    }

    static func invalidScheme(_ source: String, scheme: Substring) -> String {
        "\"\(source)\" has an invalid scheme \"\(scheme)\": a scheme is a letter followed by letters, digits, \"+\", \"-\" or \".\""
    }

    static func fragment(_ source: String) -> String {
        "\"\(source)\" has a fragment (#...), which is never sent to a server"
    }

    static func userInfo(_ source: String) -> String {
        "\"\(source)\" has user information (user@host), which requests do not carry in their URL: drop it, and match an Authorization header instead"
    }

    static func invalidHost(_ source: String, character: Character) -> String {
        "\"\(source)\" is not a valid URL: its host contains \"\(character)\""
    }

    static func hostLabelTooLong(_ source: String, label: Substring) -> String {
        "\"\(source)\" has a host label too long to write in ASCII: \"\(label)\""
    }

    static func invalidPort(_ source: String, port: Substring) -> String {
        "\"\(source)\" has an invalid port \"\(port)\": a port is a number from 0 to 65535"
    }

    static func restNotLast(_ source: String) -> String {
        "\"\(source)\" uses ** before the end of the path; ** matches the rest of the path and must come last"
    }

    static func malformedTemplate(_ source: String, segment: Substring) -> String {
        "\"\(source)\" has a malformed template segment \"\(segment)\": write {name} as a whole path segment"
    }

    // MARK: Conditions on parts of the URL, forms and combinations

    static let emptyRegex = "the URL regular expression is empty, which would match every URL: use .anyRequest for that"

    static func invalidRegex(_ source: String, reason: String) -> String {
        "the URL regular expression \"\(source)\" cannot be compiled: \(reason)"
    }

    static func invalidHostCondition(_ host: String, reason: String) -> String {
        "\"\(host)\" is not a host: \(reason)"
    }

    static let hostIsEmpty = "it is empty"
    static let hostIsAURL = "write the host alone, such as \"api.example.com\", without a scheme, a user, a path, a query or a fragment"
    static let hostHasAPort = "write the host without its port, such as \"localhost\""

    static func hostCharacter(_ character: Character) -> String {
        "it contains \"\(character)\""
    }

    static func hostLabel(_ label: Substring) -> String {
        "its label \"\(label)\" is too long to write in ASCII"
    }

    static func invalidSchemeCondition(_ scheme: String) -> String {
        let hint = scheme.contains(":") ? " (write the scheme alone, such as \"https\", without \"://\")" : ""
        return "\"\(scheme)\" is not a scheme: a scheme is a letter followed by letters, digits, \"+\", \"-\" or \".\"" + hint
    }

    /// What is wrong with `text`, a path suffix or file extension (`kind`) written
    /// as `written`, or `nil` when it is usable.
    static func pathPieceProblem(_ text: String, kind: String, written: String? = nil) -> String? {
        let written = written ?? text
        if text.isEmpty {
            return "the \(kind) \"\(written)\" is empty"
        }
        if written.first?.isWhitespace == true || written.last?.isWhitespace == true {
            return "the \(kind) \"\(written)\" has leading or trailing spaces"
        }
        if text.contains("?") {
            return "the \(kind) \"\(written)\" contains \"?\", which starts the query, and the query is not part of the path: match it with .query(name, value)"
        }
        if text.contains("#") {
            return "the \(kind) \"\(written)\" contains \"#\", which starts a fragment, and a fragment is never sent to a server"
        }
        return nil
    }

    static func fileExtensionWithSlash(_ written: String) -> String {
        "the file extension \"\(written)\" contains \"/\": an extension is the end of the last path segment; match a longer ending with .pathSuffix(_:)"
    }

    static let emptyFormFieldName = "the form field name is empty"

    /// The expected side of one alternative's difference, when the alternatives
    /// of an `or` differ in several ways: `/users, in alternative 1 (GET https://api.example.com/users)`.
    static func inAlternative(_ expected: String, number: Int, of pattern: String) -> String {
        "\(expected), in alternative \(number) (\(pattern))"
    }

    /// The expected side of a request that matched a pattern it must not match.
    static func notMatching(_ pattern: String) -> String {
        "a request not matching \(pattern)"
    }
}
