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
        let verdict = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in ASCIIFolding.verdict(mine, theirs) }
        } ?? nil
        guard let verdict else {
            // Bridged text (Apple platforms), copied once so that its bytes can be read.
            var mine = String(self), theirs = String(other)
            mine.makeContiguousUTF8()
            theirs.makeContiguousUTF8()
            return mine.equalsIgnoringCase(theirs)
        }
        switch verdict {
        case .equal: return true
        case .different: return false
        case .needsUnicode: return caseInsensitiveCompare(other) == .orderedSame
        }
    }
}

/// The byte loop of ``StringProtocol/equalsIgnoringCase(_:)``: index loops over
/// contiguous bytes (a `zip` or `allSatisfy` over two strings' `utf8` costs several
/// times as much, even specialized, and is a call per byte in a debug build).
private enum ASCIIFolding {
    enum Verdict {
        case equal
        case different
        /// A difference involves a byte that is not ASCII: Foundation decides.
        case needsUnicode
    }

    static func verdict(_ mine: UnsafeBufferPointer<UInt8>, _ theirs: UnsafeBufferPointer<UInt8>) -> Verdict {
        let lowerA = UInt8(ascii: "a"), lowerZ = UInt8(ascii: "z")
        guard mine.count == theirs.count else {
            // No folding turns ASCII text into text of another length.
            return isASCII(mine) && isASCII(theirs) ? .different : .needsUnicode
        }
        var index = 0
        while index < mine.count {
            let byte = mine[index], other = theirs[index]
            if byte != other {
                guard byte < 0x80, other < 0x80 else { return .needsUnicode }
                // An ASCII difference after an equal prefix decides: no folding
                // turns one ASCII character into another.
                let folded = byte | 0x20
                guard folded == other | 0x20, folded >= lowerA, folded <= lowerZ else { return .different }
            }
            index += 1
        }
        return .equal
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            if bytes[index] >= 0x80 {
                return false
            }
            index += 1
        }
        return true
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
