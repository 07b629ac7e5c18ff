extension UInt8 {
    /// Whether the byte is an ASCII digit.
    var isDigit: Bool { self >= 48 && self <= 57 }
    /// Whether the byte is an ASCII hexadecimal digit.
    var isHexDigit: Bool { isDigit || (self >= 65 && self <= 70) || (self >= 97 && self <= 102) }
    /// The value of a hexadecimal digit.
    var hexValue: UInt8 { isDigit ? self - 48 : (self | 0x20) - 87 }
}
