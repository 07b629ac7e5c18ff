/// Foundation-free text operations on URLs, over UTF-8.
///
/// Matching runs for every request inside `startLoading()` and parsing for every
/// registered stub, so both avoid Foundation's string bridging: these helpers work
/// on the bytes of Swift strings directly.
enum URLText {
    /// The parts of an absolute URL (`scheme://authority/path?query#fragment`), as
    /// written; `nil` when the text has no `scheme://`.
    struct Parts {
        var scheme: Substring
        /// The authority without its user information: the host and optional port.
        var hostAndPort: Substring
        var hasUserInfo: Bool
        var path: Substring
        var query: Substring?
        var fragment: Substring?
    }

    /// Splits `text` into the parts of an absolute URL, or returns `nil` when it
    /// does not start with a scheme followed by `://`.
    ///
    /// One pass over the bytes finds every delimiter; the parts are slices of
    /// `text`, so nothing is copied.
    static func split(_ text: Substring) -> Parts? {
        let utf8 = text.utf8
        let found = utf8.withContiguousStorageIfAvailable(Delimiters.init(scanning:))
            ?? Array(utf8).withUnsafeBufferPointer(Delimiters.init(scanning:))
        guard let delimiters = found else { return nil }
        func at(_ offset: Int) -> String.Index {
            utf8.index(utf8.startIndex, offsetBy: offset)
        }
        let authorityEnd = at(delimiters.authorityEnd)
        let pathEnd = at(delimiters.pathEnd)
        let queryEnd = at(delimiters.queryEnd)
        return Parts(
            scheme: text[..<at(delimiters.colon)],
            hostAndPort: text[at(delimiters.hostStart)..<authorityEnd],
            hasUserInfo: delimiters.hasUserInfo,
            path: text[authorityEnd..<pathEnd],
            query: pathEnd < queryEnd ? text[utf8.index(after: pathEnd)..<queryEnd] : nil,
            fragment: queryEnd < utf8.endIndex ? text[utf8.index(after: queryEnd)...] : nil
        )
    }

    /// The byte offsets of an absolute URL's delimiters.
    struct Delimiters {
        /// The `:` after the scheme.
        var colon: Int
        /// Where the host starts: after `://`, or after the user information's `@`.
        var hostStart: Int
        var hasUserInfo: Bool
        /// Where the authority ends and the path starts.
        var authorityEnd: Int
        /// The `?` before the query, or `queryEnd` when there is none.
        var pathEnd: Int
        /// The `#` before the fragment, or the end of the text.
        var queryEnd: Int
        /// The first `%` of the path, or `-1` when it has none.
        var firstPercentInPath: Int

        init?(scanning bytes: UnsafeBufferPointer<UInt8>) {
            // Plain loops over the bytes, with the delimiters in locals: in a debug
            // build (where tests run) a generic search or `UInt8(ascii:)` is a call
            // for each byte.
            let colonByte = UInt8(ascii: ":"), slash = UInt8(ascii: "/"), question = UInt8(ascii: "?")
            let numberSign = UInt8(ascii: "#"), at = UInt8(ascii: "@"), percent = UInt8(ascii: "%")
            let count = bytes.count
            var colon = 0
            while colon < count, bytes[colon] != colonByte {
                colon += 1
            }
            guard colon + 3 <= count, bytes[colon + 1] == slash, bytes[colon + 2] == slash else { return nil }
            self.colon = colon
            var index = colon + 3
            hostStart = index
            hasUserInfo = false
            while index < count {
                let byte = bytes[index]
                if byte == slash || byte == question || byte == numberSign { break }
                if byte == at {
                    hasUserInfo = true
                    hostStart = index + 1
                }
                index += 1
            }
            authorityEnd = index
            var mark = -1
            var firstPercent = -1
            while index < count {
                let byte = bytes[index]
                if byte == numberSign { break }
                if mark < 0 {
                    if byte == question {
                        mark = index
                    } else if byte == percent, firstPercent < 0 {
                        firstPercent = index
                    }
                }
                index += 1
            }
            queryEnd = index
            pathEnd = mark < 0 ? index : mark
            firstPercentInPath = firstPercent
        }
    }

    /// Splits `hostAndPort` into a host (brackets kept for IPv6) and the port text
    /// after `:`, if any.
    static func splitPort(_ hostAndPort: Substring) -> (host: Substring, port: Substring?) {
        let utf8 = hostAndPort.utf8
        let found = utf8.withContiguousStorageIfAvailable(portColon(in:))
            ?? Array(utf8).withUnsafeBufferPointer(portColon(in:))
        guard let offset = found else {
            return (hostAndPort, nil)
        }
        let colon = utf8.index(utf8.startIndex, offsetBy: offset)
        return (hostAndPort[..<colon], hostAndPort[utf8.index(after: colon)...])
    }

    /// The offset of the `:` before the port in the bytes of a host and port: the
    /// first one, or for an IPv6 literal the first one after its `]`.
    private static func portColon(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var searchStart = 0
        if bytes.first == UInt8(ascii: "["), let close = bytes.firstIndex(of: UInt8(ascii: "]")) {
            searchStart = close
        }
        return bytes[searchStart...].firstIndex(of: UInt8(ascii: ":"))
    }

    /// `text` with ASCII letters lowercased, and whether it had no uppercase letter
    /// (then the text returned is `text` as written).
    static func lowercased(_ text: Substring) -> (text: String, wasLowercase: Bool) {
        let hasUppercase = text.utf8.withContiguousStorageIfAvailable { $0.contains(where: isUppercase) }
            ?? text.utf8.contains(where: isUppercase)
        guard hasUppercase else {
            return (String(text), true)
        }
        return (String(decoding: text.utf8.map { isUppercase($0) ? $0 | 0x20 : $0 }, as: UTF8.self), false)
    }

    /// Whether `byte` is an ASCII uppercase letter.
    private static func isUppercase(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }

    /// The query items of a percent-encoded query, names and values decoded; empty
    /// pieces (`a&&b`) are skipped and `+` stays a plus, as `URLComponents` does.
    static func queryItems(_ query: Substring) -> [QueryItem] {
        // At the bytes of each `&`, as a server splits: one followed by a combining
        // mark still separates (split as characters, it would not).
        query.utf8.split(separator: UInt8(ascii: "&")).map { queryItem(Substring($0)) }
    }

    /// The items of a query or a form as the redaction reads them (see
    /// `Redactor.redactForm`), names and values decoded: split at the bytes of each
    /// `&` and each `;` (which some servers read as `&`), so that an item's value
    /// holds a `;` only when it was sent encoded (`%3B`). What replaying compares a
    /// recorded query or form with.
    static func listItems(_ text: Substring) -> [QueryItem] {
        text.utf8.split { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") }.map { queryItem(Substring($0)) }
    }

    /// The item `piece` of a query or a form: its name and value split at its first
    /// `=` byte (no value without one), each percent-decoded.
    static func queryItem(_ piece: Substring) -> QueryItem {
        if let equals = piece.utf8.firstIndex(of: UInt8(ascii: "=")) {
            return QueryItem(
                name: percentDecoded(piece[..<equals]),
                value: percentDecoded(piece[piece.utf8.index(after: equals)...])
            )
        }
        return QueryItem(name: percentDecoded(piece), value: nil)
    }

    /// `text` with `%XX` escapes decoded; an invalid escape is kept as written, and
    /// bytes that do not form UTF-8 are repaired.
    static func percentDecoded(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        var pending: [UInt8] = []
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            pending = [byte]
            guard let high = iterator.next() else { bytes += pending; break }
            pending.append(high)
            guard let low = iterator.next() else { bytes += pending; break }
            pending.append(low)
            if let high = hexValue(high), let low = hexValue(low) {
                bytes.append(high << 4 | low)
            } else {
                bytes += pending
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` with every byte outside `allowed` (and every non-ASCII byte) written
    /// as a `%XX` escape, and its existing escapes in normal form (see
    /// ``normalizedEscape(_:_:)``); a `%` that starts no escape is kept.
    static func percentEncoded(_ text: Substring, allowing allowed: (UInt8) -> Bool) -> String {
        let percent = UInt8(ascii: "%")
        guard text.utf8.contains(where: { !allowed($0) }) else { return String(text) }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == percent, index + 2 < utf8.count, let normal = normalizedEscape(utf8[index + 1], utf8[index + 2]) {
                bytes += normal
                index += 3
                continue
            }
            if allowed(byte) || byte == percent {
                bytes.append(byte)
            } else {
                bytes.append(percent)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The escape `%` `high` `low` in normal form (RFC 3986, 6.2.2): the character
    /// itself for an unreserved one (`%7E` is `~`), which URIs treat as the same,
    /// and otherwise the escape with uppercase hex digits (`%2f` is `%2F`); `nil`
    /// when `high` and `low` are not two hex digits.
    static func normalizedEscape(_ high: UInt8, _ low: UInt8) -> [UInt8]? {
        guard let highValue = hexValue(high), let lowValue = hexValue(low) else { return nil }
        let byte = highValue << 4 | lowValue
        if unreserved.contains(byte) {
            return [byte]
        }
        return [UInt8(ascii: "%"), hexDigits[Int(highValue)], hexDigits[Int(lowValue)]]
    }

    /// Whether an escape in `bytes` is not in normal form (see
    /// ``normalizedEscape(_:_:)``): a lowercase hex digit, or an unreserved character.
    static func hasEscapeToNormalize(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let percent = UInt8(ascii: "%")
        var index = 0
        // Read where it is, with no escape built: a request's path is checked on
        // every request that has a `%` in it.
        let lowercaseA = UInt8(ascii: "a")
        while index + 2 < bytes.count {
            let high = bytes[index + 1], low = bytes[index + 2]
            if bytes[index] == percent, let highValue = hexValue(high), let lowValue = hexValue(low) {
                if high >= lowercaseA || low >= lowercaseA || unreserved.contains(highValue << 4 | lowValue) {
                    return true
                }
                index += 3
            } else {
                index += 1
            }
        }
        return false
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The lowercase ASCII letters.
    static let lowercaseLetters = ASCIISet("abcdefghijklmnopqrstuvwxyz")
    /// The ASCII letters and digits.
    private static let lettersAndDigits = lowercaseLetters.union(ASCIISet("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"))
    /// RFC 3986 `unreserved`: letters, digits and `-._~`.
    private static let unreserved = lettersAndDigits.union(ASCIISet("-._~"))
    /// RFC 3986 `sub-delims`.
    private static let subDelimiters = ASCIISet("!$&'()*+,;=")
    /// What may appear unescaped in a path segment: RFC 3986 `pchar` without `%`,
    /// which is handled separately.
    static let pathCharacters = unreserved.union(subDelimiters).union(ASCIISet(":@"))
    /// What may appear unescaped in a query.
    private static let queryCharacters = pathCharacters.union(ASCIISet("/?"))
    /// What may appear in a host name (registered name or IP literal).
    static let hostCharacters = unreserved.union(subDelimiters).union(ASCIISet("%[]:"))
    /// What may follow a scheme's first letter: letters, digits and `+-.`.
    private static let schemeCharacters = lettersAndDigits.union(ASCIISet("+-."))

    /// Whether `byte` may appear unescaped in a path segment (RFC 3986 `pchar`
    /// without `%`, which is handled separately).
    static func isPathCharacter(_ byte: UInt8) -> Bool {
        pathCharacters.contains(byte)
    }

    /// Whether `byte` may appear unescaped in a query.
    static func isQueryCharacter(_ byte: UInt8) -> Bool {
        queryCharacters.contains(byte)
    }

    /// Whether `byte` may appear in a host name (registered name or IP literal).
    static func isHostCharacter(_ byte: UInt8) -> Bool {
        hostCharacters.contains(byte)
    }

    /// Whether `scheme` is an RFC 3986 scheme: a letter, then letters, digits, `+`,
    /// `-` or `.`.
    static func isValidScheme(_ scheme: Substring) -> Bool {
        guard let first = scheme.utf8.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z") else {
            return false
        }
        return allBytes(of: scheme, in: schemeCharacters)
    }

    /// Whether the bytes `scheme` are an RFC 3986 scheme, as the text form checks.
    static func isValidScheme(_ scheme: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = scheme.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z") else {
            return false
        }
        return allBytes(of: scheme, in: schemeCharacters)
    }

    /// Whether every byte of `text` is in `set`.
    ///
    /// A loop over the text's contiguous bytes: in a debug build (where tests run)
    /// a loop over a string's `utf8`, or `allSatisfy`, is generic code, a chain of
    /// calls for each byte.
    static func allBytes(of text: Substring, in set: ASCIISet) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { allBytes(of: $0, in: set) } ?? text.utf8.allSatisfy(set.contains)
    }

    /// Whether every one of `bytes` is in `set`.
    static func allBytes(of bytes: UnsafeBufferPointer<UInt8>, in set: ASCIISet) -> Bool {
        var index = 0
        while index < bytes.count {
            if !set.contains(bytes[index]) {
                return false
            }
            index += 1
        }
        return true
    }
}

/// A query item, its name and value percent-decoded.
struct QueryItem: Sendable, Hashable {
    /// The item's name.
    var name: String
    /// The item's value; `nil` when the item has no `=`.
    var value: String?

    /// `items` in one order whatever theirs: by name, then by value (an item with
    /// no `=` before any with one), so that two queries with the same items in
    /// other orders compare, and identify a request, alike.
    static func canonicallyOrdered(_ items: [QueryItem]) -> [QueryItem] {
        items.sorted { first, second in
            if first.name != second.name {
                return first.name < second.name
            }
            switch (first.value, second.value) {
            case let (firstValue?, secondValue?): return firstValue < secondValue
            case (nil, _?): return true
            case (_, nil): return false
            }
        }
    }
}
