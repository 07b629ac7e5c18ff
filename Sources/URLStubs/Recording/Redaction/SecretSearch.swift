import Foundation

/// Finds secrets in text in every spelling a reader could turn back into the
/// secret: as it is or with its case changed; percent-encoded (with `+` for a
/// space or not); JSON-escaped (`\/`, `\uXXXX` of any character); hex; base64
/// and base64url at each of the three byte alignments, wrapped in lines or not;
/// and, in bodies, UTF-16
/// (little- and big-endian).
///
/// The text is decoded rather than the secret encoded: every percent escape and
/// JSON escape in the text is undone, repeatedly (an escape of an escape too),
/// and the secret is looked for in each result, case-insensitively. Hex and
/// base64 are encodings of the secret's bytes, looked for as such (hex
/// case-insensitively, base64 exactly, with `-_` read as `+/`).
struct SecretSearch {
    /// What is looked for: a secret's spellings, as bytes.
    private struct Needles {
        let secret: LeakScan.Secret
        /// Looked for in the lowercased views of a text.
        let folded: [[UInt8]]
        /// Looked for in the views of a text as they are (base64 is case-sensitive).
        let exact: [[UInt8]]
    }

    private let needles: [Needles]

    init(_ secrets: [LeakScan.Secret]) {
        needles = secrets.map { secret in
            let bytes = Array(secret.value.utf8)
            let folded = [Array(secret.value.lowercased().utf8), Array(Self.hex(bytes).utf8)]
            let exact = Self.base64Cores(of: bytes).filter { $0.count >= LeakScan.minimumBase64Length }
            return Needles(secret: secret, folded: folded.filter { !$0.isEmpty }, exact: exact)
        }
    }

    var isEmpty: Bool {
        needles.isEmpty
    }

    /// The first secret found in `text`, in any of its spellings.
    func firstSecret(in text: String) -> LeakScan.Secret? {
        guard !needles.isEmpty else { return nil }
        return firstSecret(inViews: Self.views(of: text))
    }

    /// The first secret found in the bytes of a body: read as UTF-8, and as UTF-16
    /// in both byte orders from both offsets.
    func firstSecret(inBody body: Data) -> LeakScan.Secret? {
        guard !needles.isEmpty, !body.isEmpty else { return nil }
        var views = Self.views(of: String(decoding: body, as: UTF8.self))
        let bytes = [UInt8](body)
        for offset in 0..<2 where bytes.count - offset >= 2 {
            var little: [UInt16] = []
            var big: [UInt16] = []
            little.reserveCapacity(bytes.count / 2)
            big.reserveCapacity(bytes.count / 2)
            var index = offset
            while index + 1 < bytes.count {
                little.append(UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
                big.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            for units in [little, big] {
                views.append(String(decoding: units, as: UTF16.self))
            }
        }
        return firstSecret(inViews: views)
    }

    private func firstSecret(inViews views: [String]) -> LeakScan.Secret? {
        let folded = views.map { Array($0.lowercased().utf8) }
        var exact = views.map { view in
            Array(view.utf8).map { byte -> UInt8 in
                switch byte {
                case UInt8(ascii: "-"): UInt8(ascii: "+")
                case UInt8(ascii: "_"): UInt8(ascii: "/")
                default: byte
                }
            }
        }
        // Base64 wrapped in lines (MIME's 76 characters, PEM's 64), its line
        // breaks inside the secret's spelling: read without white space too.
        let whiteSpace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        for view in exact where view.contains(where: whiteSpace.contains) {
            exact.append(view.filter { !whiteSpace.contains($0) })
        }
        for entry in needles {
            for needle in entry.folded where folded.contains(where: { Self.contains($0, needle) }) {
                return entry.secret
            }
            for needle in entry.exact where exact.contains(where: { Self.contains($0, needle) }) {
                return entry.secret
            }
        }
        return nil
    }

    /// `text` with every spelling of every secret that can be cut out of it
    /// (as it is, any case; percent-encoded; JSON-escaped) replaced by `mark`.
    /// What remains may still hold a secret in another spelling: check it again.
    func mask(_ text: String, with mark: String = "•••") -> String {
        var result = text
        let spellings = needles.flatMap { entry -> [String] in
            let value = entry.secret.value
            var forms = [value, value.replacingOccurrences(of: "/", with: "\\/"), value.replacingOccurrences(of: " ", with: "+")]
            for allowed in [CharacterSet.alphanumerics, .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+")), .urlPathAllowed] {
                if let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed) {
                    forms.append(encoded)
                }
            }
            return forms
        }
        for spelling in Set(spellings).sorted(by: { $0.count > $1.count }) where !spelling.isEmpty {
            result = result.replacingOccurrences(of: spelling, with: mark, options: [.caseInsensitive, .literal])
        }
        return result
    }

    /// `text` with the start of a secret that a preview cut short (two or more of
    /// its first characters, then `…`) replaced by `mark`.
    func maskCutShort(_ text: String, with mark: String) -> String {
        guard text.contains("…") else { return text }
        var pieces = text.components(separatedBy: "…")
        for index in pieces.indices.dropLast() {
            let before = pieces[index].lowercased()
            var cut = 0
            for entry in needles {
                let value = entry.secret.value.lowercased()
                for length in stride(from: min(value.count - 1, before.count), through: 2, by: -1) where before.hasSuffix(value.prefix(length)) {
                    cut = max(cut, length)
                    break
                }
            }
            if cut > 0 {
                pieces[index] = String(pieces[index].dropLast(cut)) + mark
            }
        }
        return pieces.joined(separator: "…")
    }

    // MARK: - Views of a text

    /// `text`, and what undoing its percent escapes (with `+` as a space or not)
    /// and its JSON escapes gives, in any order, up to three layers deep.
    static func views(of text: String) -> [String] {
        var views = [text]
        var seen: Set<String> = [text]
        var frontier = [text]
        for _ in 0..<3 {
            var next: [String] = []
            for view in frontier {
                for decoded in [percentDecoded(view, plusIsSpace: false), percentDecoded(view, plusIsSpace: true), jsonUnescaped(view)]
                where seen.insert(decoded).inserted {
                    views.append(decoded)
                    next.append(decoded)
                }
            }
            guard !next.isEmpty else { break }
            frontier = next
        }
        return views
    }

    /// `text` with each valid `%XX` escape undone (an invalid one is kept as it is).
    static func percentDecoded(_ text: String, plusIsSpace: Bool) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) || (plusIsSpace && bytes.contains(UInt8(ascii: "+"))) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` with each JSON escape undone wherever it is (`\"`, `\\`, `\/`, `\b`,
    /// `\f`, `\n`, `\r`, `\t`, `\uXXXX` with surrogate pairs joined); anything
    /// else is kept as it is.
    static func jsonUnescaped(_ text: String) -> String {
        let units = Array(text.utf16)
        guard units.contains(UInt16(UInt8(ascii: "\\"))) else { return text }
        var output: [UInt16] = []
        output.reserveCapacity(units.count)
        var index = 0
        while index < units.count {
            let unit = units[index]
            guard unit == UInt16(UInt8(ascii: "\\")), index + 1 < units.count else {
                output.append(unit)
                index += 1
                continue
            }
            let next = units[index + 1]
            switch next < 0x80 ? UInt8(next) : 0 {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                output.append(next)
                index += 2
            case UInt8(ascii: "b"): output.append(0x08); index += 2
            case UInt8(ascii: "f"): output.append(0x0C); index += 2
            case UInt8(ascii: "n"): output.append(0x0A); index += 2
            case UInt8(ascii: "r"): output.append(0x0D); index += 2
            case UInt8(ascii: "t"): output.append(0x09); index += 2
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                if index + 5 < units.count, let value = hexValue(units[(index + 2)...(index + 5)]) {
                    output.append(value)
                    index += 6
                } else {
                    output.append(unit)
                    index += 1
                }
            default:
                output.append(unit)
                index += 1
            }
        }
        return String(decoding: output, as: UTF16.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func hexValue(_ units: ArraySlice<UInt16>) -> UInt16? {
        var value: UInt16 = 0
        for unit in units {
            guard unit < 0x80, let digit = hexValue(UInt8(unit)) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    // MARK: - Encodings of a secret

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }

    /// The base64 characters that depend only on `bytes`, when they start at each
    /// of the three offsets a base64 stream can put them at.
    static func base64Cores(of bytes: [UInt8]) -> [[UInt8]] {
        guard !bytes.isEmpty else { return [] }
        return (0..<3).map { alignment in
            let text = Array((Data(repeating: 0, count: alignment) + Data(bytes)).base64EncodedString().utf8)
            let firstBit = 8 * alignment
            let endBit = 8 * (alignment + bytes.count)
            // Character k encodes bits [6k, 6k + 6) of the stream.
            let first = (firstBit + 5) / 6
            let end = endBit / 6
            return first < end ? Array(text[first..<end]) : []
        }
    }

    /// Whether `haystack` contains `needle`.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        let last = haystack.count - needle.count
        var index = 0
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                while index <= last {
                    if hay[index] == first {
                        var matched = 1
                        while matched < pin.count, hay[index + matched] == pin[matched] {
                            matched += 1
                        }
                        if matched == pin.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }
}
