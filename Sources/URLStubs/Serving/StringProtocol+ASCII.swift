extension StringProtocol {
    /// Whether the text equals `other`, ignoring ASCII case.
    func caseInsensitiveEquals(_ other: some StringProtocol) -> Bool {
        utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { Self.lower($0) == Self.lower($1) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte + 32 : byte
    }

    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let text = Substring(self)
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return start < end ? text[start..<end] : text[start..<start]
    }
}
