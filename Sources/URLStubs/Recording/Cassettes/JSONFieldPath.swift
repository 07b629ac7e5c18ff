import Foundation

/// A path to JSON fields, as cassette matching rules name them: object keys joined
/// by dots, entering arrays element by element.
struct JSONFieldPath: Sendable, Hashable {
    /// Why a path cannot be used.
    struct Invalid: Error {
        let reason: String
    }

    /// The keys, outermost first; never empty.
    let keys: [String]

    /// Parses `text`: `id`, `params.cursor`, `$.params.cursor`.
    init(parsing text: String) throws(Invalid) {
        var body = Substring(text)
        if body.hasPrefix("$.") {
            body = body.dropFirst(2)
        }
        guard !body.isEmpty else { throw Invalid(reason: RecordingMessages.emptyJSONPath) }
        let keys = body.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if keys.contains(where: \.isEmpty) {
            throw Invalid(reason: RecordingMessages.emptyJSONPathKey)
        }
        if keys.contains(where: { $0.contains("[") || $0.contains("]") }) {
            throw Invalid(reason: RecordingMessages.bracketsInJSONPath)
        }
        self.keys = keys
    }

    /// `value` without the fields at this path.
    func removing(from value: Any) -> Any {
        Self.removing(keys[...], from: value)
    }

    private static func removing(_ keys: ArraySlice<String>, from value: Any) -> Any {
        switch value {
        case var object as [String: Any]:
            guard let key = keys.first, let child = object[key] else { return object }
            object[key] = keys.count == 1 ? nil : removing(keys.dropFirst(), from: child)
            return object
        case let array as [Any]:
            return array.map { removing(keys, from: $0) }
        default:
            return value
        }
    }

    /// `answer` with the values at this path taken from `request`, where both have
    /// one; arrays are paired element by element.
    func echoing(from request: Any, into answer: Any) -> Any {
        Self.echoing(keys[...], from: request, into: answer)
    }

    private static func echoing(_ keys: ArraySlice<String>, from request: Any, into answer: Any) -> Any {
        switch (request, answer) {
        case let (source as [String: Any], target as [String: Any]):
            guard let key = keys.first, let value = source[key], let current = target[key] else { return target }
            var result = target
            result[key] = keys.count == 1 ? value : echoing(keys.dropFirst(), from: value, into: current)
            return result
        case let (sources as [Any], targets as [Any]):
            return targets.enumerated().map { index, target in
                index < sources.count ? echoing(keys, from: sources[index], into: target) : target
            }
        default:
            return answer
        }
    }
}
