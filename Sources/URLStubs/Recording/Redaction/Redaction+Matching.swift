import Foundation

/// How recorded values compare with a request's on replay: a redacted value
/// matches any value.
extension Redaction {
    /// Whether `actual` has exactly the items of `recorded`, in any order, where a
    /// recorded placeholder value matches any value. Both are read as the redaction
    /// reads them (``URLText/listItems(_:)``: split at `;` as at `&`), so a
    /// placeholder never stands for a raw `;`: `token=y;admin=1` has an item more
    /// than the request recorded as `token=URLSTUBS-REDACTED`.
    ///
    /// The items are paired as a whole, not first come first served: a pairing of
    /// every item is searched for, so a placeholder never takes the item another
    /// recorded value needs (`a=1&a=2` matches `a=URLSTUBS-REDACTED&a=1`, and
    /// `a=x-1-y&a=x-2` matches `a=x-URLSTUBS-REDACTED&a=x-URLSTUBS-REDACTED-y`).
    static func queryItems(_ actual: [QueryItem], match recorded: [QueryItem]) -> Bool {
        guard actual.count == recorded.count else { return false }
        // The actual items each recorded one matches; then a matching of the two
        // sides, grown one recorded item at a time along augmenting paths (a
        // recorded item may take an actual one from another, which moves on to
        // another of its own). A query has a handful of items: n³ comparisons at most.
        let candidates = recorded.map { item in
            actual.indices.filter { actual[$0].name == item.name && value(actual[$0].value, matches: item.value) }
        }
        var owner = [Int?](repeating: nil, count: actual.count)
        func pair(_ item: Int, _ visited: inout [Bool]) -> Bool {
            // A free item first: with many alike, most pair at once, without a search.
            if let free = candidates[item].first(where: { owner[$0] == nil }) {
                owner[free] = item
                return true
            }
            for candidate in candidates[item] where !visited[candidate] {
                visited[candidate] = true
                if let other = owner[candidate], !pair(other, &visited) {
                    continue
                }
                owner[candidate] = item
                return true
            }
            return false
        }
        for item in recorded.indices {
            var visited = [Bool](repeating: false, count: actual.count)
            guard pair(item, &visited) else { return false }
        }
        return true
    }

    /// Whether the text `actual` is the `recorded` one, where the placeholder in
    /// `recorded` stands for any text: a whole value redacted, or a part of one (a
    /// query item after `;`, a URL's query in a header).
    static func value(_ actual: String?, matches recorded: String?) -> Bool {
        guard let recorded, let actual else { return actual == recorded }
        if recorded == placeholder || actual == recorded {
            return true
        }
        guard recorded.contains(placeholder) else { return false }
        // JSON in a value (a query's `variables`) was written again when redacted:
        // compared as JSON, as bodies are.
        if Redactor.looksLikeJSON(Data(recorded.utf8)), let matched = jsonDocument(Data(actual.utf8), matches: Data(recorded.utf8)) {
            return matched
        }
        return textMatches(Data(actual.utf8), Data(recorded.utf8), listDelimiters: urlListDelimiters)
    }

    /// Whether `actual` equals the `recorded` body: byte for byte, or as equal JSON
    /// where a recorded placeholder string matches any value.
    static func body(_ actual: Data?, matches recorded: Data?) -> Bool {
        let actual = actual ?? Data()
        let recorded = recorded ?? Data()
        if actual == recorded {
            return true
        }
        if let matched = jsonDocument(actual, matches: recorded) {
            return matched
        }
        // A form whose items were redacted (inside too: JSON written again, a
        // URL's query) is compared item by item, as a query is.
        if let recordedText = String(data: recorded, encoding: .utf8), recordedText.contains(placeholder),
           !recordedText.contains(where: \.isNewline), Redactor.looksLikeForm(recordedText),
           let actualText = String(data: actual, encoding: .utf8), !actualText.contains(where: \.isNewline),
           queryItems(URLText.listItems(actualText[...]), match: URLText.listItems(recordedText[...])) {
            return true
        }
        return textMatches(actual, recorded, listDelimiters: formListDelimiters)
    }

    /// Whether the JSON document `actual` matches the `recorded` one (see
    /// ``json(_:matches:)``), or `nil` when either is not JSON: the one comparison
    /// of bodies, of values, and of JSON sent inside a JSON string.
    private static func jsonDocument(_ actual: Data, matches recorded: Data) -> Bool? {
        guard let expected = try? JSONSerialization.jsonObject(with: recorded, options: [.fragmentsAllowed]),
              let given = try? JSONSerialization.jsonObject(with: actual, options: [.fragmentsAllowed]) else { return nil }
        return json(given, matches: expected)
    }

    private static func json(_ actual: Any, matches recorded: Any) -> Bool {
        switch recorded {
        case let string as String:
            if string == placeholder {
                return true
            }
            guard let given = actual as? String else { return false }
            if given == string {
                return true
            }
            // JSON sent inside a JSON string, redacted as JSON: compared as JSON.
            if Redactor.looksLikeJSON(Data(string.utf8)), let matched = jsonDocument(Data(given.utf8), matches: Data(string.utf8)) {
                return matched
            }
            // A string a pattern rule cut into (`Bearer URLSTUBS-REDACTED`).
            return value(given, matches: string)
        case let object as [String: Any]:
            guard let given = actual as? [String: Any], Set(given.keys) == Set(object.keys) else { return false }
            return object.allSatisfy { key, value in json(given[key]!, matches: value) }
        case let array as [Any]:
            guard let given = actual as? [Any], given.count == array.count else { return false }
            return zip(given, array).allSatisfy { json($0, matches: $1) }
        default:
            // `true` is not `1`, though both are read as an NSNumber that says so.
            guard isBoolean(actual) == isBoolean(recorded) else { return false }
            return (actual as? NSObject)?.isEqual(recorded) ?? false
        }
    }

    /// Whether `value`, as JSONSerialization reads it, is `true` or `false`.
    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    /// What ends a value of a `name=value` list in a URL or a header: the items'
    /// separators and a URL's fragment, as bytes.
    private static let urlListDelimiters: [UInt8] = [UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: "#")]
    /// What ends a value of a form body, where `#` is text like any other.
    private static let formListDelimiters: [UInt8] = [UInt8(ascii: "&"), UInt8(ascii: ";")]

    /// Whether the text `actual` equals `recorded` where each placeholder in
    /// `recorded` stands for any text, except that a placeholder right after `=`
    /// replaced one value of a `name=value` list (a query, a form, a cookie): it
    /// stands for text without `listDelimiters`, so that
    /// `password=URLSTUBS-REDACTED` does not match `password=x&admin=true`.
    ///
    /// Compared as UTF-8 bytes, as the redactor splits what it redacts and as a
    /// server splits a form: a `&` followed by a combining mark still ends a
    /// value (compared as characters, it would be part of one `Character` and
    /// let `password=x&\u{301}admin=true` replay a recorded `password=...`).
    private static func textMatches(_ actual: Data, _ recorded: Data, listDelimiters: [UInt8]) -> Bool {
        // Text only, as recorded values are.
        guard String(data: recorded, encoding: .utf8) != nil, String(data: actual, encoding: .utf8) != nil else { return false }
        let parts = split([UInt8](recorded), at: Array(placeholder.utf8))
        guard parts.count > 1 else { return false } // No placeholder.
        let text = [UInt8](actual)
        var rest = text[...]
        // Whether the placeholder being matched is one value of a list (see above).
        var isListValue = false
        func allows(_ matched: ArraySlice<UInt8>) -> Bool {
            !isListValue || !matched.contains(where: listDelimiters.contains)
        }
        for (index, part) in parts.enumerated() {
            if index == 0 {
                guard rest.starts(with: part) else { return false }
                rest = rest.dropFirst(part.count)
            } else if index == parts.count - 1 {
                return rest.count >= part.count && rest.suffix(part.count).elementsEqual(part) && allows(rest.dropLast(part.count))
            } else if !part.isEmpty { // Two placeholders side by side: nothing between them to find.
                guard let found = firstIndex(of: part, in: rest), allows(rest[..<found]) else { return false }
                rest = rest[(found + part.count)...]
            }
            if !part.isEmpty {
                isListValue = part.last == UInt8(ascii: "=")
            }
        }
        return true
    }

    /// `bytes` split at each occurrence of `separator` (not empty), the pieces
    /// between them kept, empty ones too.
    private static func split(_ bytes: [UInt8], at separator: [UInt8]) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var rest = bytes[...]
        while let found = firstIndex(of: separator, in: rest) {
            pieces.append(rest[..<found])
            rest = rest[(found + separator.count)...]
        }
        pieces.append(rest)
        return pieces
    }

    /// Where the first occurrence of `needle` (not empty) starts in `haystack`, or `nil`.
    private static func firstIndex(of needle: some Collection<UInt8>, in haystack: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var start = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while start <= last {
            if haystack[start] == first, haystack[start..<(start + needle.count)].elementsEqual(needle) {
                return start
            }
            start += 1
        }
        return nil
    }
}
