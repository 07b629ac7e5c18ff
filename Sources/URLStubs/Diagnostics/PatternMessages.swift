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
}
