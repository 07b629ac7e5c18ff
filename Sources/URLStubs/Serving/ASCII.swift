/// The ASCII the HTTP/1.1 parser reads: digits, hexadecimal digits, the text of
/// fields, and fields' optional white space.
extension UInt8 {
    /// Whether the byte is an ASCII digit.
    var isDigit: Bool { self >= 48 && self <= 57 }
    /// Whether the byte is an ASCII hexadecimal digit.
    var isHexDigit: Bool { isDigit || (self >= 65 && self <= 70) || (self >= 97 && self <= 102) }
    /// The value of a hexadecimal digit.
    var hexValue: UInt8 { isDigit ? self - 48 : (self | 0x20) - 87 }
    /// Whether the byte may appear in a field value (RFC 9110 section 5.5): a
    /// visible character, a space, a tab or obs-text; no other control character.
    var isFieldText: Bool { self == 9 || (self >= 32 && self != 127) }
}

extension StringProtocol {
    /// Whether the text equals `other`, folding only the ASCII letters A-Z: what
    /// HTTP/1.1 means by case-insensitive for the tokens and host names a server
    /// checks. Unlike ``equalsIgnoringCase(_:)``, no other character is folded, so
    /// a `Host` such as `localhoſt` is not taken for `localhost`.
    func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { mine, theirs in
            mine == theirs || (mine | 0x20 == theirs | 0x20 && (mine | 0x20) >= UInt8(ascii: "a") && (mine | 0x20) <= UInt8(ascii: "z"))
        }
    }

    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let text = Substring(self)
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return start < end ? text[start..<end] : text[start..<start]
    }
}
