/// The lines of a chunked request body (RFC 9112 section 7.1), held to the head's
/// rules: each ends with `CR LF` (a `CR` alone in one is refused; an `LF` alone is
/// refused as it is read), a chunk-size line's extensions are well-formed, and a
/// trailer line is a well-formed field line.
extension RequestParser {
    /// Reads a chunk-size line, without its `CR LF`: the size, then any chunk
    /// extensions, which must be well-formed and are then ignored.
    static func chunkSize(_ line: ArraySlice<UInt8>) throws(RequestRejection) -> Int {
        guard !line.contains(13) else { throw .malformed(ServingMessages.chunkedBareCarriageReturn) }
        let digits = line.prefix(while: \.isHexDigit)
        let extensions = line[digits.endIndex...]
        // After the size: nothing, or an extension (its ';' may follow spaces).
        guard !digits.isEmpty, digits.count <= 15, extensions.isEmpty || extensions.drop(while: { $0 == 32 || $0 == 9 }).first == 59 else {
            throw .malformed(ServingMessages.chunkSize(String(decoding: line, as: UTF8.self)))
        }
        guard areChunkExtensions(extensions) else {
            throw .malformed(ServingMessages.chunkExtension(String(decoding: line, as: UTF8.self)))
        }
        return digits.reduce(0) { $0 * 16 + Int($1.hexValue) }
    }

    /// Reads a trailer line, without its `CR LF`: a field line as in the head (a
    /// name that is a token, a colon, no obsolete line folding), then dropped.
    static func trailer(_ line: ArraySlice<UInt8>) throws(RequestRejection) {
        guard !line.contains(13) else { throw .malformed(ServingMessages.chunkedBareCarriageReturn) }
        _ = try field(line, isTrailer: true)
    }

    /// Whether `bytes`, what follows a chunk's size, are chunk extensions by RFC
    /// 9112 section 7.1.1: `*( BWS ";" BWS name [ BWS "=" BWS value ] )`, each
    /// name a token, each value a token or a quoted string.
    private static func areChunkExtensions(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        /// Moves past spaces and tabs (bad white space, which a recipient skips).
        func skipSpaces() {
            while index < bytes.endIndex, bytes[index] == 32 || bytes[index] == 9 {
                index += 1
            }
        }
        /// Moves past a token; `false` when none starts at `index`.
        func skipToken() -> Bool {
            let tokenStart = index
            while index < bytes.endIndex, isTokenByte(bytes[index]) {
                index += 1
            }
            return index > tokenStart
        }
        /// Moves past a quoted string (RFC 9110 section 5.6.4): field text between
        /// double quotes, a backslash quoting the byte after it; `false` when none
        /// starts at `index` or it does not end.
        func skipQuotedString() -> Bool {
            guard index < bytes.endIndex, bytes[index] == 34 else { return false }
            index += 1
            while index < bytes.endIndex {
                switch bytes[index] {
                case 34:
                    index += 1
                    return true
                case 92:
                    guard index + 1 < bytes.endIndex, bytes[index + 1].isFieldText else { return false }
                    index += 2
                case let byte where byte.isFieldText:
                    index += 1
                default:
                    return false
                }
            }
            return false
        }
        while index < bytes.endIndex {
            skipSpaces()
            guard index < bytes.endIndex, bytes[index] == 59 else { return false } // ';'
            index += 1
            skipSpaces()
            guard skipToken() else { return false }
            let nameEnd = index
            skipSpaces()
            if index < bytes.endIndex, bytes[index] == 61 { // '='
                index += 1
                skipSpaces()
                guard skipToken() || skipQuotedString() else { return false }
            } else {
                // No value: spaces after the name are only allowed before a ';'.
                index = nameEnd
            }
        }
        return true
    }
}
