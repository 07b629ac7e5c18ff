/// A parsed URL pattern: an origin (or none, for a path-only pattern), a path of
/// literal and template segments, and optionally the exact query it requires.
///
/// Parsed over UTF-8, without Foundation: registering a stub costs microseconds.
///
/// A class, and immutable: matching reads the pattern of every stub it compares, and
/// a copy is then one retain instead of one per part.
final class URLPattern: Sendable {
    enum Segment: Sendable, Equatable {
        /// A percent-encoded segment that must be equal.
        case literal(String)
        /// `{name}`: any one non-empty segment, captured as a path parameter.
        case parameter(String)
        /// `*`: any one non-empty segment.
        case wildcard
        /// `**` as the last segment: any remainder of the path, even empty.
        case rest
    }

    /// The pattern as the user wrote it.
    let source: String
    /// The origin to match, for a pattern read by the full parse; `nil` for a
    /// path-only pattern such as `/users/{id}`, and for a literal pattern in normal
    /// form (most stubs' pattern), which keeps no origin object: it is matched by
    /// its route key, which is its text, and its origin is compared and written
    /// from that text (``hasOrigin(of:)``, ``originText``).
    private let parsedOrigin: RequestTarget?
    /// Where the path of a literal pattern in normal form starts in the UTF-8 of
    /// ``source`` (which is then its route key), or `nil` for any other pattern.
    private let literalPathStart: Int?
    /// The path of a literal pattern in normal form, kept (not cut from the text
    /// when asked for): a near-miss report writes it for every stub it compares.
    let literalPath: String?
    /// The path's segments as parsed, or `nil` for a literal path in normal form,
    /// which is matched whole (see ``segments``).
    private let parsedSegments: [Segment]?
    /// How many of ``segments`` are parameters.
    let parameterCount: Int
    /// The query items required exactly (in any order), when the pattern has a `?`.
    let query: [QueryItem]?

    /// The path's segments. A literal path in normal form (most stubs' pattern)
    /// keeps none: it is matched, and written out, as one piece of text
    /// (``literalPath``), and its segments are made when asked for (the tests hold
    /// them to the full parse's).
    var segments: [Segment] {
        guard let parsedSegments else {
            return Self.literalSegments(ofPath: literalPath ?? "/")
        }
        return parsedSegments
    }

    /// The exact-index key when the pattern names an origin and a literal path:
    /// its origin and path, matched as one piece of text (read for every request
    /// a stub is compared with, so kept rather than worked out).
    let routeKey: String?

    /// Whether the pattern names an origin (a path-only pattern does not).
    var namesOrigin: Bool {
        parsedOrigin != nil || literalPathStart != nil
    }

    /// The pattern's origin as reports write it (`https://api.example.com:8443`),
    /// or `nil` for a pattern without one; a literal pattern in normal form reads
    /// it from its text, which starts with it.
    var originText: String? {
        if let parsedOrigin {
            return RequestPattern.originText(parsedOrigin)
        }
        guard let literalPathStart else { return nil }
        return String(Substring(source.utf8.prefix(literalPathStart)))
    }

    /// Whether `target` has the pattern's origin (`false` for a pattern without one).
    /// A literal pattern in normal form compares the text of the two origins, which
    /// are both in normal form: it has no origin object to compare.
    func hasOrigin(of target: RequestTarget?) -> Bool {
        guard let target else { return false }
        if let parsedOrigin {
            return RequestPattern.sameOrigin(target, parsedOrigin)
        }
        guard let literalPathStart else { return false }
        let theirs = target.routeKey.utf8
        guard theirs.count - target.path.utf8.count == literalPathStart else { return false }
        // Both texts start with their origins: their first bytes are compared,
        // eight at a time (`elementsEqual` over two `utf8` views costs many times
        // as much: a near-miss report compares every stub).
        let equal = theirs.withContiguousStorageIfAvailable { theirs in
            source.utf8.withContiguousStorageIfAvailable { mine in
                Self.firstBytesEqual(UnsafeRawPointer(theirs.baseAddress!), UnsafeRawPointer(mine.baseAddress!), count: literalPathStart)
            }
        } ?? nil
        return equal ?? theirs.prefix(literalPathStart).elementsEqual(source.utf8.prefix(literalPathStart))
    }

    /// Whether the `count` bytes at `first` and at `second` are equal: eight at a
    /// time, then one at a time.
    private static func firstBytesEqual(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            if first.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != second.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset += 8
        }
        while offset < count {
            if first.load(fromByteOffset: offset, as: UInt8.self) != second.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset += 1
        }
        return true
    }

    /// Parses `source`, throwing a sentence that says what is wrong with it.
    convenience init(parsing source: String) throws(PatternError) {
        if let pathStart = Self.literalPathStart(inNormalForm: source) {
            self.init(source: source, literalPathStart: pathStart)
        } else {
            try self.init(parsingInFull: source)
        }
    }

    /// A literal pattern in normal form whose path starts at `literalPathStart`.
    private init(source: String, literalPathStart: Int) {
        self.source = source
        self.literalPathStart = literalPathStart
        literalPath = String(Substring(source.utf8.dropFirst(literalPathStart)))
        routeKey = source
        parsedOrigin = nil
        parsedSegments = nil
        parameterCount = 0
        query = nil
    }

    /// Where the path of `source` starts when it is the pattern most stubs are
    /// written with: an absolute URL in normal form (see ``RequestTarget``), an
    /// ASCII host, and a literal path written as it is matched, with no query and
    /// no fragment. Read in one pass, copying nothing; `nil` for any other
    /// pattern, which ``init(parsingInFull:)`` reads (and rejects, when it is
    /// malformed).
    private static func literalPathStart(inNormalForm source: String) -> Int? {
        var contiguous = source
        contiguous.makeContiguousUTF8() // A bridged string (Apple platforms) is copied once, so that its bytes can be read.
        return contiguous.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            // The route key ends where the path does: nothing may follow it.
            guard let found = RequestTarget.normalFormDelimiters(of: bytes), found.pathEnd == bytes.count else { return nil }
            let start = bytes.baseAddress!
            guard URLText.isValidScheme(UnsafeBufferPointer(start: start, count: found.colon)),
                  URLText.allBytes(of: UnsafeBufferPointer(start: start + found.hostStart, count: found.authorityEnd - found.hostStart), in: URLText.hostCharacters),
                  isLiteralPath(UnsafeBufferPointer(start: start + found.authorityEnd, count: found.pathEnd - found.authorityEnd))
            else { return nil }
            return found.authorityEnd
        } ?? nil
    }

    /// Whether the bytes of a path that starts with `/` may each be matched as
    /// written, with no segment a wildcard (`*` or `**`).
    ///
    /// Index loops, with the classes and delimiters in locals: in a debug build
    /// (where tests run) a loop over a range or a slice, or `UInt8(ascii:)`, is a
    /// call for each byte.
    private static func isLiteralPath(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        let allowed = URLText.pathCharacters
        let slash = UInt8(ascii: "/"), percent = UInt8(ascii: "%"), star = UInt8(ascii: "*")
        var start = 1
        var index = 1
        // The index moves on at the end of each pass, not in a `defer`: in a debug
        // build a `defer` in a loop is a call for each byte.
        while index <= path.count {
            if index < path.count && path[index] != slash {
                let byte = path[index]
                guard byte == percent || allowed.contains(byte) else { return false }
            } else {
                // A segment of one or two stars is a wildcard, not a literal.
                let length = index - start
                if length == 1 && path[start] == star || length == 2 && path[start] == star && path[start + 1] == star {
                    return false
                }
                start = index + 1
            }
            index += 1
        }
        return true
    }

    /// The segments of `path`, a literal path in normal form: its text between
    /// the `/`s, each a literal.
    private static func literalSegments(ofPath path: String) -> [Segment] {
        path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { bytes in
            .literal(String(Substring(bytes)))
        }
    }

    /// Parses `source` however it is written, throwing a sentence that says what
    /// is wrong with it.
    init(parsingInFull source: String) throws(PatternError) {
        self.source = source
        guard let first = source.utf8.first, let last = source.utf8.last else {
            throw PatternError(PatternMessages.empty)
        }
        if Self.mayBeWhitespace(first) && source.first!.isWhitespace || Self.mayBeWhitespace(last) && source.last!.isWhitespace {
            throw PatternError(PatternMessages.surroundingSpaces(source))
        }
        literalPathStart = nil
        literalPath = nil
        if first == UInt8(ascii: "/") {
            let text = source[...]
            if text.utf8.contains(UInt8(ascii: "#")) {
                throw PatternError(PatternMessages.fragment(source))
            }
            let mark = text.utf8.firstIndex(of: UInt8(ascii: "?"))
            parsedOrigin = nil
            routeKey = nil
            let segments = try Self.parseSegments(mark.map { text[..<$0] } ?? text, in: source).segments
            parsedSegments = segments
            parameterCount = Self.parameterCount(of: segments)
            query = mark.map { URLText.queryItems(text[text.utf8.index(after: $0)...]) }
            return
        }
        guard let parts = URLText.split(source[...]) else {
            // `https:/x` has a scheme and no host; `localhost:8080/x` a host and a
            // port, and no scheme.
            let afterColon = source.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first
            let isHostAndPort = afterColon?.first?.isASCII == true && afterColon?.first?.isNumber == true
            throw PatternError(source.contains(":") && !isHostAndPort ? PatternMessages.noHost(source) : PatternMessages.noScheme(source))
        }
        guard URLText.isValidScheme(parts.scheme) else {
            throw PatternError(PatternMessages.invalidScheme(source, scheme: parts.scheme))
        }
        guard parts.fragment == nil else {
            throw PatternError(PatternMessages.fragment(source))
        }
        guard !parts.hasUserInfo else {
            throw PatternError(PatternMessages.userInfo(source))
        }
        var (host, portText) = URLText.splitPort(parts.hostAndPort)
        guard !host.isEmpty else {
            throw PatternError(PatternMessages.noHost(source))
        }
        // A host with non-ASCII letters is matched in the ASCII form Foundation
        // sends (`bücher.example` as `xn--bcher-kva.example`).
        let isInternational = host.utf8.contains { $0 >= 0x80 }
        if isInternational {
            switch InternationalHost.ascii(host) {
            case let .success(ascii):
                host = ascii[...]
            case let .failure(.character(character)):
                throw PatternError(PatternMessages.invalidHost(source, character: character))
            case let .failure(.labelTooLong(label)):
                throw PatternError(PatternMessages.hostLabelTooLong(source, label: label))
            }
        }
        if let bad = host.utf8.firstIndex(where: { !URLText.isHostCharacter($0) }) {
            throw PatternError(PatternMessages.invalidHost(source, character: host[bad...].first ?? " "))
        }
        var port: Int?
        if let portText, !portText.isEmpty {
            // Digits only: `Int` would also take a sign (`+443`), which no URL's port has.
            guard portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(portText), (0...65_535).contains(number) else {
                throw PatternError(PatternMessages.invalidPort(source, port: portText))
            }
            port = number
        }
        let path = parts.path.isEmpty ? "/" : parts.path
        let (segments, isVerbatim) = try Self.parseSegments(path, in: source)
        parsedSegments = segments
        parameterCount = Self.parameterCount(of: segments)
        let literalPath = isVerbatim ? String(path) : "/" + segments.map { segment in
            if case let .literal(text) = segment { text } else { "" }
        }.joined(separator: "/")
        // The route key is the written text only when the host is written as it is matched.
        let origin = RequestTarget(parts: parts, host: host, portText: portText, port: port, path: literalPath, query: nil, pathIsWritten: isVerbatim && !isInternational)
        parsedOrigin = origin
        routeKey = segments.allSatisfy { if case .literal = $0 { true } else { false } } ? origin.routeKey : nil
        query = parts.query.map(URLText.queryItems)
    }

    /// How many of `segments` are parameters.
    private static func parameterCount(of segments: [Segment]) -> Int {
        segments.reduce(0) { count, segment in
            if case .parameter = segment { count + 1 } else { count }
        }
    }

    /// Whether `byte` may start or end a whitespace character (ASCII whitespace,
    /// or any non-ASCII byte, which is checked as a character).
    private static func mayBeWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte >= 0x80
    }

    /// Parses the segments of `path` (which starts with `/`); `isVerbatim` tells
    /// whether every segment is a literal written exactly as it is matched, so that
    /// the path itself is the literal path.
    private static func parseSegments(_ path: Substring, in source: String) throws(PatternError) -> (segments: [Segment], isVerbatim: Bool) {
        let utf8 = path.utf8
        var segments: [Segment] = []
        // One segment per `/`: the array is allocated once.
        segments.reserveCapacity(utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) })
        var isVerbatim = true
        var start = utf8.index(after: utf8.startIndex)
        while true {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
            let isLast = end == utf8.endIndex
            let part = path[start..<end]
            let length = utf8.distance(from: start, to: end)
            let isStars = length <= 2 && part.utf8.allSatisfy { $0 == UInt8(ascii: "*") }
            if isStars, length == 2 {
                guard isLast else {
                    throw PatternError(PatternMessages.restNotLast(source))
                }
                segments.append(.rest)
                isVerbatim = false
            } else if isStars, length == 1 {
                segments.append(.wildcard)
                isVerbatim = false
            } else if part.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) {
                let inner = part.utf8.dropFirst().dropLast()
                guard part.utf8.first == UInt8(ascii: "{"), part.utf8.last == UInt8(ascii: "}"), !inner.isEmpty,
                      !inner.contains(UInt8(ascii: "{")), !inner.contains(UInt8(ascii: "}"))
                else {
                    throw PatternError(PatternMessages.malformedTemplate(source, segment: part))
                }
                segments.append(.parameter(String(Substring(inner))))
                isVerbatim = false
            } else {
                let literal = URLText.percentEncoded(part, allowing: URLText.isPathCharacter)
                isVerbatim = isVerbatim && literal.utf8.elementsEqual(part.utf8)
                segments.append(.literal(literal))
            }
            if isLast {
                return (segments, isVerbatim)
            }
            start = utf8.index(after: end)
        }
    }

    /// Whether the percent-encoded `path` matches the pattern's segments.
    ///
    /// Walks the path's bytes segment by segment (a segment runs from after a `/` to
    /// the next one), or compares them whole with a literal path in normal form, and
    /// allocates nothing: what the parameters captured is read only when asked for
    /// (see ``parameters(inPath:)`` and ``PathCaptures``).
    func matches(path: String) -> Bool {
        withBytes(of: path) { walk($0, capturing: nil) } ?? false
    }

    /// The parameters the pattern captures from the percent-encoded `path`,
    /// percent-decoded, or `nil` when the path does not match.
    func parameters(inPath path: String) -> [String: String]? {
        guard parameterCount > 0 else { return matches(path: path) ? [:] : nil }
        return withBytes(of: path) { bytes in
            // Not `init(minimumCapacity:)`, which looks its storage's generic type
            // up in the runtime on every call; most templates capture one parameter.
            var parameters: [String: String] = [:]
            let matched = walk(bytes) { name, part in
                let text = String(decoding: part, as: UTF8.self)
                parameters[name] = part.contains(UInt8(ascii: "%")) ? URLText.percentDecoded(text[...]) : text
            }
            return matched ? parameters : nil
        } ?? nil
    }

    /// `body` over the UTF-8 bytes of `path`.
    private func withBytes<Result>(of path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        if let result = path.utf8.withContiguousStorageIfAvailable(body) {
            return result
        }
        var contiguous = path
        contiguous.makeContiguousUTF8() // A bridged string (Apple platforms), copied once.
        return contiguous.utf8.withContiguousStorageIfAvailable(body)
    }

    /// Whether the path `bytes` match the segments, handing each parameter's name
    /// and the bytes it captured (whole UTF-8, never empty) to `capture`.
    private func walk(_ bytes: UnsafeBufferPointer<UInt8>, capturing capture: ((String, UnsafeBufferPointer<UInt8>) -> Void)?) -> Bool {
        guard let parsedSegments else {
            // A literal path: the segments would be compared one by one to the
            // end, which is comparing the whole path (the end of the text).
            return Self.bytes(bytes, equal: literalPath ?? "/")
        }
        let slash = UInt8(ascii: "/")
        // Where the next segment starts; `nil` once there is none. A path that does
        // not start with `/` has no segments.
        var next: Int? = bytes.first == slash ? 1 : nil
        for segment in parsedSegments {
            if case .rest = segment {
                return true
            }
            guard let start = next else { return false }
            var end = start
            while end < bytes.count, bytes[end] != slash {
                end += 1
            }
            next = end == bytes.count ? nil : end + 1
            // Cut at `/` bytes, so each part is whole UTF-8.
            let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
            switch segment {
            case let .literal(text):
                guard Self.bytes(part, equal: text) else { return false }
            case let .parameter(name):
                guard !part.isEmpty else { return false }
                capture?(name, part)
            case .wildcard:
                guard !part.isEmpty else { return false }
            case .rest:
                return true
            }
        }
        return next == nil
    }

    /// Whether `part` holds exactly the UTF-8 bytes of `text`.
    private static func bytes(_ part: UnsafeBufferPointer<UInt8>, equal text: String) -> Bool {
        guard part.count == text.utf8.count else { return false }
        // A loop by index: `elementsEqual` steps through two iterators, a generic
        // call per byte in a debug build and several times the work in a release one.
        return text.utf8.withContiguousStorageIfAvailable { written in
            var index = 0
            while index < part.count {
                if part[index] != written[index] {
                    return false
                }
                index += 1
            }
            return true
        } ?? part.elementsEqual(text.utf8)
    }

    /// The required query compared with `items` as multisets of name-value pairs.
    func queryMatches(_ items: [QueryItem]?) -> Bool {
        guard let query else { return true }
        let items = items ?? []
        // Compared as decoded pairs, not as `name=value` texts: `a%3Db=c` (the
        // item `a=b` with the value `c`) is not `a=b%3Dc` (`a` with `b=c`).
        return items.count == query.count && QueryItem.canonicallyOrdered(query) == QueryItem.canonicallyOrdered(items)
    }
}

/// A malformed request pattern, with a sentence that says what is wrong.
struct PatternError: Error, Sendable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
