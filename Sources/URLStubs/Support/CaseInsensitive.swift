import Foundation

extension StringProtocol {
    /// Whether the text equals `other` when case is ignored.
    ///
    /// ASCII text (header names, schemes, hosts, HTTP tokens) is compared byte by
    /// byte, folding only the letters A-Z; text with any other byte is compared by
    /// Foundation's `caseInsensitiveCompare(_:)`, which folds the rest of Unicode.
    /// The result is the same either way; the byte loop only skips Foundation's cost
    /// where it cannot matter.
    func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
        var isASCII = true
        if utf8.count == other.utf8.count {
            let equal = zip(utf8, other.utf8).allSatisfy { mine, theirs in
                if mine == theirs { return true }
                guard mine < 0x80, theirs < 0x80 else {
                    isASCII = false
                    return false
                }
                let folded = mine | 0x20
                return folded == theirs | 0x20 && folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")
            }
            // An ASCII difference after an equal ASCII prefix decides: no folding
            // turns one ASCII character into another.
            if equal || isASCII { return equal }
        } else if utf8.allSatisfy({ $0 < 0x80 }) && other.utf8.allSatisfy({ $0 < 0x80 }) {
            return false
        }
        return caseInsensitiveCompare(other) == .orderedSame
    }
}

extension [String: String] {
    /// Whether a header field named `name` is present, compared case-insensitively.
    func containsField(_ name: String) -> Bool {
        // Most header sets are empty: nothing to search then (a search is generic
        // code in a debug build, where tests run).
        !isEmpty && keys.contains { $0.equalsIgnoringCase(name) }
    }
}
