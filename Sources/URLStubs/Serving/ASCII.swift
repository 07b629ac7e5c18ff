/// The ASCII the HTTP/1.1 parser reads: digits, hexadecimal digits, and fields'
/// optional white space.
extension UInt8 {
    /// Whether the byte is an ASCII digit.
    var isDigit: Bool { self >= 48 && self <= 57 }
    /// Whether the byte is an ASCII hexadecimal digit.
    var isHexDigit: Bool { isDigit || (self >= 65 && self <= 70) || (self >= 97 && self <= 102) }
    /// The value of a hexadecimal digit.
    var hexValue: UInt8 { isDigit ? self - 48 : (self | 0x20) - 87 }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let text = Substring(self)
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return start < end ? text[start..<end] : text[start..<start]
    }
}
