import Foundation

/// The ASCII form of a host name written with non-ASCII letters (an
/// internationalized domain name, such as `bücher.example`): the form Foundation
/// puts in a request's URL, and so the form a pattern must match.
///
/// As IDNA (UTS #46) maps a host: the ideographic and full-width full stops
/// separate labels as `.` does; each label with a non-ASCII character is
/// lowercased and put in compatibility-composed form (NFKC, so full-width `Ｆ`
/// is `f` and `ﬁ` is `fi`), then, if it is still not ASCII, written as `xn--`
/// followed by its Punycode encoding (RFC 3492). Labels that are ASCII already
/// are kept as they are. `bücher.example` becomes `xn--bcher-kva.example`.
enum InternationalHost {
    /// Why a host cannot be written in ASCII.
    enum Refusal: Error, Equatable {
        /// It contains a character that is neither a letter, a mark, a number, a
        /// symbol nor a character a host may contain in ASCII (a space, say, or
        /// punctuation).
        case character(Character)
        /// One of its labels is too long to encode (far longer than the 63 bytes a
        /// DNS label may have).
        case labelTooLong(Substring)
    }

    /// The ASCII form of `host`, which contains at least one non-ASCII byte, or
    /// why it has none.
    static func ascii(_ host: Substring) -> Result<String, Refusal> {
        var labels: [String] = []
        let separators: Set<Character> = [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"]
        for label in host.split(omittingEmptySubsequences: false, whereSeparator: separators.contains) {
            guard label.utf8.contains(where: { $0 >= 0x80 }) else {
                labels.append(String(label))
                continue
            }
            if let character = label.first(where: { !isLabelCharacter($0) }) {
                return .failure(.character(character))
            }
            let mapped = String(label).lowercased().precomposedStringWithCompatibilityMapping
            guard mapped.utf8.contains(where: { $0 >= 0x80 }) else {
                labels.append(mapped)
                continue
            }
            guard let encoded = Punycode.encode(Array(mapped.unicodeScalars)) else {
                return .failure(.labelTooLong(label))
            }
            labels.append("xn--" + encoded)
        }
        return .success(labels.joined(separator: "."))
    }

    /// Whether `character` may stand in a label that is mapped and encoded: an
    /// ASCII letter, digit or hyphen, or non-ASCII letters, marks, numbers and
    /// symbols. (The mapped label is checked again as a host once encoded.)
    private static func isLabelCharacter(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { scalar in
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                return (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "-")
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber, .otherSymbol:
                return true
            default:
                return scalar.properties.isAlphabetic
            }
        }
    }
}
