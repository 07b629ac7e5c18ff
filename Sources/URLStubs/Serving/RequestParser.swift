/// Reads an HTTP/1.1 request head, and decides how its body is framed, by the
/// rules of RFC 9112; every departure from them is a ``RequestRejection`` naming
/// the problem.
///
/// Strict where leniency lets two readers disagree on where a request ends
/// (request smuggling): lines must end with `CR LF`, header names are tokens
/// with the colon right after them, obsolete line folding is refused,
/// `Content-Length` and `Transfer-Encoding` may not come together, and
/// `Content-Length` values may not conflict. A chunked body's lines are held to
/// the same rules (`RequestParser+Chunked.swift`).
enum RequestParser {
    /// How a request's body is delimited.
    enum Framing: Equatable {
        /// No body.
        case none
        /// Exactly this many bytes.
        case length(Int)
        /// Chunked transfer coding.
        case chunked
    }

    /// Parses `bytes`, a request head without its final empty line.
    static func head(_ bytes: ArraySlice<UInt8>, limits: ServingLimits) throws(RequestRejection) -> RequestHead {
        var lines = try Self.lines(of: bytes)
        guard !lines.isEmpty, !lines[0].isEmpty else { throw .malformed(ServingMessages.emptyHead) }
        let requestLine = lines.removeFirst()
        guard lines.count <= limits.headerCount else {
            throw RequestRejection(status: 431, reason: ServingMessages.tooManyFields(limit: limits.headerCount))
        }
        let (method, target, version) = try Self.requestLine(requestLine)
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(lines.count)
        for line in lines {
            fields.append(try field(line))
        }
        return RequestHead(method: method, target: target, version: version, fields: fields)
    }

    /// The lines of `bytes`, split at each `CR LF`; a `CR` or `LF` alone is refused.
    private static func lines(of bytes: ArraySlice<UInt8>) throws(RequestRejection) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch bytes[index] {
            case 13:
                guard index + 1 < bytes.endIndex, bytes[index + 1] == 10 else {
                    throw .malformed(ServingMessages.bareCarriageReturn)
                }
                lines.append(bytes[lineStart..<index])
                index += 2
                lineStart = index
            case 10:
                throw .malformed(ServingMessages.bareLineFeed)
            default:
                index += 1
            }
        }
        lines.append(bytes[lineStart..<bytes.endIndex])
        return lines
    }

    private static func requestLine(_ line: ArraySlice<UInt8>) throws(RequestRejection) -> (String, String, String) {
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        let text = String(decoding: line, as: UTF8.self)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw .malformed(ServingMessages.requestLine(text))
        }
        let method = String(decoding: parts[0], as: UTF8.self)
        guard parts[0].allSatisfy(isTokenByte) else { throw .malformed(ServingMessages.method(method)) }
        let target = String(decoding: parts[1], as: UTF8.self)
        guard parts[1].allSatisfy({ $0 > 32 && $0 < 127 }) else { throw .malformed(ServingMessages.target(target)) }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            let isWellFormed = parts[2].count == 8 && version.hasPrefix("HTTP/")
                && parts[2][parts[2].startIndex + 5].isDigit && parts[2][parts[2].startIndex + 6] == 46 && parts[2][parts[2].startIndex + 7].isDigit
            throw isWellFormed
                ? RequestRejection(status: 505, reason: ServingMessages.unsupportedVersion(version))
                : .malformed(ServingMessages.version(version))
        }
        if target == "*" {
            throw .malformed(ServingMessages.asteriskTarget)
        }
        guard target.hasPrefix("/") || target.lowercased().hasPrefix("http://") || target.lowercased().hasPrefix("https://") else {
            throw .malformed(ServingMessages.target(target))
        }
        return (method, target, version)
    }

    /// Reads a field line, `NAME: VALUE`, of the head or (`isTrailer`) of a
    /// chunked body's trailer section; its refusals name which.
    static func field(_ line: ArraySlice<UInt8>, isTrailer: Bool = false) throws(RequestRejection) -> (name: String, value: String) {
        if let first = line.first, first == 32 || first == 9 {
            throw .malformed(isTrailer ? ServingMessages.trailerObsoleteFold : ServingMessages.obsoleteFold)
        }
        guard let colon = line.firstIndex(of: 58), colon > line.startIndex,
              line[..<colon].allSatisfy(isTokenByte),
              line[(colon + 1)...].allSatisfy(\.isFieldText)
        else {
            let text = String(decoding: line, as: UTF8.self)
            throw .malformed(isTrailer ? ServingMessages.trailerLine(text) : ServingMessages.fieldLine(text))
        }
        let name = String(decoding: line[..<colon], as: UTF8.self)
        let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces
        return (name, String(value))
    }

    /// How the body of the request `head` announces is framed, or why it cannot be read.
    static func framing(of head: RequestHead, limits: ServingLimits) throws(RequestRejection) -> Framing {
        let codings = head.values(of: "Transfer-Encoding")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingSpaces.lowercased() }
            .filter { !$0.isEmpty }
        let lengths = head.values(of: "Content-Length")
            .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { String($0.trimmingSpaces) }
        if !head.values(of: "Transfer-Encoding").isEmpty {
            guard lengths.isEmpty else { throw .malformed(ServingMessages.lengthAndChunked) }
            guard head.version == "HTTP/1.1" else { throw .malformed(ServingMessages.transferEncodingInHTTP10) }
            guard codings.last == "chunked" else { throw .malformed(ServingMessages.chunkedNotLast) }
            // RFC 9112, section 6.1: chunked is applied once.
            guard codings.reduce(0, { $0 + ($1 == "chunked" ? 1 : 0) }) == 1 else { throw .malformed(ServingMessages.chunkedTwice) }
            if let other = codings.first(where: { $0 != "chunked" }) {
                throw RequestRejection(status: 501, reason: ServingMessages.transferCoding(other))
            }
            return .chunked
        }
        guard let first = lengths.first else { return .none }
        for value in lengths {
            guard !value.isEmpty, value.utf8.allSatisfy(\.isDigit) else { throw .malformed(ServingMessages.badLength(value)) }
        }
        // Compared as numbers: 007 and 7 agree.
        let numbers = lengths.map { $0.drop { $0 == "0" } }
        guard numbers.allSatisfy({ $0 == numbers[0] }) else {
            throw .malformed(ServingMessages.conflictingLengths(lengths))
        }
        guard numbers[0].count <= 18, let length = Int(numbers[0].isEmpty ? "0" : String(numbers[0])), length <= limits.bodyBytes else {
            throw RequestRejection(status: 413, reason: ServingMessages.bodyTooLarge(limit: limits.bodyBytes))
        }
        _ = first
        return length == 0 ? .none : .length(length)
    }

    /// Whether `byte` may appear in a token (a method or a header name), RFC 9110.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
