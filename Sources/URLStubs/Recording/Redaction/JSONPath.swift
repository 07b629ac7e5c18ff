import Foundation

/// One step from a JSON value to one inside it: an object's key or an array's index.
enum JSONStep: Hashable {
    case key(String)
    case index(Int)
}

/// A path a ``Redaction/Rule/jsonField(_:)`` rule names: `user.token`,
/// `$.items[*].id`, `items[0]['api key']`, `*.secret`.
struct JSONPath: Sendable {
    enum Step: Sendable, Equatable {
        case key(String)
        /// `*`: any one key.
        case anyKey
        case index(Int)
        /// `[*]`: any one index.
        case anyIndex
    }

    let steps: [Step]

    /// The path `text` names, or why it names none.
    static func parse(_ text: String) -> Result<JSONPath, RuleProblem> {
        var characters = Substring(text)
        if characters.hasPrefix("$") {
            characters = characters.dropFirst()
            if characters.hasPrefix(".") { characters = characters.dropFirst() }
        }
        var steps: [Step] = []
        var expectsKey = true
        while let first = characters.first {
            switch first {
            case "[":
                guard let close = characters.firstIndex(of: "]") else {
                    return .failure(RuleProblem(reason: "its [ has no ]"))
                }
                let inside = characters[characters.index(after: characters.startIndex)..<close]
                characters = characters[characters.index(after: close)...]
                if inside == "*" {
                    steps.append(.anyIndex)
                } else if let index = Int(inside), index >= 0 {
                    steps.append(.index(index))
                } else if inside.count >= 2, let quote = inside.first, quote == inside.last, quote == "'" || quote == "\"" {
                    steps.append(.key(String(inside.dropFirst().dropLast())))
                } else {
                    return .failure(RuleProblem(reason: "[\(inside)] is neither [*], an index nor a quoted key"))
                }
                expectsKey = false
            case ".":
                characters = characters.dropFirst()
                if characters.first == "." {
                    return .failure(RuleProblem(reason: "recursive descent (..) is not supported; use * for any one key"))
                }
                expectsKey = true
            default:
                guard expectsKey else { return .failure(RuleProblem(reason: "a key must follow a . or start the path")) }
                let end = characters.firstIndex { $0 == "." || $0 == "[" } ?? characters.endIndex
                let key = characters[..<end]
                steps.append(key == "*" ? .anyKey : .key(String(key)))
                characters = characters[end...]
                expectsKey = false
            }
        }
        guard !steps.isEmpty else { return .failure(RuleProblem(reason: "it names no field")) }
        guard !expectsKey else { return .failure(RuleProblem(reason: "it ends with a .")) }
        return .success(JSONPath(steps: steps))
    }

    /// Whether the value at `path` is one this path names. An array met where
    /// the path names a key is stepped through (`items.id` is the `id` of every
    /// element of `items`), and so are arrays at the end.
    func matches(_ path: [JSONStep]) -> Bool {
        Self.match(steps[...], path[...])
    }

    private static func match(_ pattern: ArraySlice<Step>, _ actual: ArraySlice<JSONStep>) -> Bool {
        guard let step = pattern.first else {
            return actual.allSatisfy { if case .index = $0 { true } else { false } }
        }
        guard let value = actual.first else { return false }
        switch (step, value) {
        case let (.key(wanted), .key(key)):
            return wanted == key && match(pattern.dropFirst(), actual.dropFirst())
        case (.anyKey, .key), (.anyIndex, .index):
            return match(pattern.dropFirst(), actual.dropFirst())
        case let (.index(wanted), .index(index)):
            return wanted == index && match(pattern.dropFirst(), actual.dropFirst())
        case (.key, .index), (.anyKey, .index):
            return match(pattern, actual.dropFirst())
        default:
            return false
        }
    }
}

/// Why a redaction rule cannot be used.
struct RuleProblem: Error, Sendable {
    let reason: String
}
