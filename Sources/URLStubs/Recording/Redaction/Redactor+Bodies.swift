import Foundation

/// Redaction inside bodies, by their structure: JSON, NDJSON, server-sent
/// events, multipart forms and urlencoded forms, field by field.
extension Redactor {
    /// Why a body cannot be read for the rules that apply to it.
    struct BodyFailure: Error {
        let reason: String
    }

    /// Redacts `body` in place as the structure it has; fails with the reason when
    /// it has a structure the rules apply to (JSON, by its type or its first
    /// character) but cannot be read as one.
    mutating func redactStructured(_ body: inout Data, contentType: String?, origin: String) -> Result<Void, BodyFailure> {
        let type = contentType?.lowercased() ?? ""
        guard !body.isEmpty else { return .success(()) }
        if let encoding = Self.utf16Encoding(of: body), Self.isText(type) {
            return redactText(&body, in: encoding, after: 2, contentType: contentType, origin: origin)
        }
        if Self.isText(type), !type.hasPrefix("multipart/"), String(data: body, encoding: .utf8) == nil || Self.utf16EncodingWithoutMark(of: body) != nil {
            // Text in another encoding (Latin-1, UTF-16 without its mark): read
            // in it, not passed over as bytes that are not UTF-8. (A multipart
            // body is read part by part, each in its own encoding.)
            return redactText(&body, in: Self.textEncoding(of: body, contentType: type), after: 0, contentType: contentType, origin: origin)
        }
        if type.hasPrefix("multipart/") {
            return redactMultipart(&body, contentType: contentType ?? "", origin: origin)
        }
        if type.hasPrefix("text/event-stream") {
            return redactEventStream(&body, origin: origin)
        }
        if ["ndjson", "jsonl", "json-seq", "jsonlines"].contains(where: type.contains) {
            return redactJSONLines(&body, origin: origin)
        }
        if Self.looksLikeJSON(body) || type.contains("json") {
            switch redactJSONDocument(body, origin: origin) {
            case let .success(redacted):
                body = redacted
                return .success(())
            case let .failure(failure):
                // Several JSON documents, one a line, sent without an NDJSON type.
                var lines = body
                if Self.isJSONLines(body), case .success = redactJSONLines(&lines, origin: origin) {
                    body = lines
                    return .success(())
                }
                return .failure(failure)
            }
        }
        // `=` by byte, as a server reads a form: one followed by a combining mark counts.
        if let text = String(data: body, encoding: .utf8), text.utf8.contains(UInt8(ascii: "=")) {
            // A form-encoded body, by its type or by its look whatever its type
            // says: its items are redacted by name, like a query's, line by line
            // (a line break inside is read as a server that splits on it would),
            // each line that reads as a form (a value may go on over lines).
            let isForm = type.contains("form")
            var rewritten = ""
            for (line, end) in Self.lines(of: text) {
                rewritten += (isForm || Self.looksLikeForm(line) ? redactForm(line, origin: "in " + origin) : String(line)) + end
            }
            if rewritten != text {
                body = Data(rewritten.utf8)
            }
        }
        return .success(())
    }

    /// Whether `text` reads as a form (`name=value&…`, items separated by `&` or
    /// `;`, on one line or several): every item has a name before an `=`, and no
    /// name has white space, quotes, braces or angle brackets (`user[password]`
    /// is a name). Values may have anything (a careless client leaves spaces
    /// unescaped). Items and names are split at the bytes of `&`, `;` and `=`, as
    /// `redactForm(_:origin:)` splits them.
    static func looksLikeForm(_ text: some StringProtocol) -> Bool {
        var items = 0
        for line in text.split(whereSeparator: \.isNewline) {
            for item in line.utf8.split(whereSeparator: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") }) {
                guard let equals = item.firstIndex(of: UInt8(ascii: "=")), equals > item.startIndex else { return false }
                guard !String(decoding: item[..<equals], as: UTF8.self).contains(where: { $0.isWhitespace || "\"'{}<>()".contains($0) }) else { return false }
                items += 1
            }
        }
        return items > 0
    }

    /// The UTF-16 encoding of `body` when it reads as UTF-16 text without a
    /// byte-order mark: most of the high bytes of its code units zero (Latin
    /// text, a `€` or two among it), none of the low ones, and the whole of it
    /// decoding in that byte order. (ASCII text in UTF-16 is valid UTF-8 too, its
    /// zeros read as NUL characters.)
    static func utf16EncodingWithoutMark(of body: Data) -> String.Encoding? {
        guard body.count >= 2, body.count % 2 == 0 else { return nil }
        let bytes = [UInt8](body)
        let units = bytes.count / 2
        let zerosAtEven = stride(from: 0, to: bytes.count, by: 2).reduce(0) { $0 + (bytes[$1] == 0 ? 1 : 0) }
        let zerosAtOdd = stride(from: 1, to: bytes.count, by: 2).reduce(0) { $0 + (bytes[$1] == 0 ? 1 : 0) }
        let candidate: String.Encoding
        if zerosAtEven == 0, zerosAtOdd * 4 >= units * 3 {
            candidate = .utf16LittleEndian
        } else if zerosAtOdd == 0, zerosAtEven * 4 >= units * 3 {
            candidate = .utf16BigEndian
        } else {
            return nil
        }
        return String(data: body, encoding: candidate) != nil ? candidate : nil
    }

    /// The text of `body` as pattern rules read it, in the encoding it is written
    /// in, after its first `prefix` bytes (a UTF-16 byte-order mark): UTF-8, or
    /// for a text or multipart body that is not, as ``textEncoding(of:contentType:)``
    /// reads it; `nil` for other bodies that are not UTF-8.
    static func textView(of body: Data, contentType type: String) -> (text: String, encoding: String.Encoding, prefix: Int)? {
        if let text = String(data: body, encoding: .utf8), utf16EncodingWithoutMark(of: body) == nil {
            return (text, .utf8, 0)
        }
        guard isText(type) || type.hasPrefix("multipart/") else { return String(data: body, encoding: .utf8).map { ($0, .utf8, 0) } }
        if let encoding = utf16Encoding(of: body), let text = String(data: body.dropFirst(2), encoding: encoding) {
            return (text, encoding, 2)
        }
        let encoding = textEncoding(of: body, contentType: type)
        return String(data: body, encoding: encoding).map { ($0, encoding, 0) }
    }

    /// The encoding a text body that is not UTF-8 is read in: UTF-16 when it reads
    /// as UTF-16 without a byte-order mark (see ``utf16EncodingWithoutMark(of:)``),
    /// else the charset its type declares when the body reads in it, else Latin-1,
    /// which reads any bytes and writes them back the same.
    static func textEncoding(of body: Data, contentType type: String) -> String.Encoding {
        if let utf16 = utf16EncodingWithoutMark(of: body) {
            return utf16
        }
        let declared: String.Encoding? = switch parameter("charset", in: type)?.lowercased() {
        case "utf-16le": .utf16LittleEndian
        case "utf-16be", "utf-16": .utf16BigEndian
        case "windows-1252", "cp1252": .windowsCP1252
        default: nil
        }
        if let declared, String(data: body, encoding: declared) != nil {
            return declared
        }
        return .isoLatin1
    }

    /// Whether `body`'s first character (after a byte-order mark and white space)
    /// opens a JSON object or array.
    static func looksLikeJSON(_ body: Data) -> Bool {
        var bytes = body[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = bytes.dropFirst(3)
        }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// Whether the (lowercased) content type `type` is text: none given, `text/…`,
    /// a JSON, XML, form or script type, or a UTF-16 charset. Bytes of another type
    /// that open like a UTF-16 byte-order mark are not read as text.
    static func isText(_ type: String) -> Bool {
        type.isEmpty || type.hasPrefix("text/") || type.contains("charset=utf-16")
            || ["json", "xml", "form", "javascript"].contains(where: type.contains)
    }

    /// The encoding of `body` when it opens with a UTF-16 byte-order mark.
    private static func utf16Encoding(of body: Data) -> String.Encoding? {
        if body.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
        if body.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
        return nil
    }

    /// `body`, text in `encoding` after its first `prefix` bytes (a byte-order
    /// mark), redacted as the same text in UTF-8 would be, and written back in its
    /// own encoding: its JSON, forms and events are read, not passed over as
    /// bytes that are not UTF-8. A body that is not such text after all, or whose
    /// redacted text its encoding cannot write, cannot be read.
    private mutating func redactText(_ body: inout Data, in encoding: String.Encoding, after prefix: Int, contentType: String?, origin: String) -> Result<Void, BodyFailure> {
        guard let text = String(data: body.dropFirst(prefix), encoding: encoding) else {
            return .failure(BodyFailure(reason: prefix > 0
                ? "it opens with a UTF-16 byte-order mark but is not UTF-16 text"
                : "it is not UTF-8, nor text in the encoding its type declares"))
        }
        var utf8 = Data(text.utf8)
        let original = utf8
        if case let .failure(failure) = redactStructured(&utf8, contentType: contentType, origin: origin) {
            return .failure(failure)
        }
        guard utf8 != original else { return .success(()) }
        // The redacted text was UTF-8 of this text with parts replaced: UTF-8 still.
        guard let written = String(decoding: utf8, as: UTF8.self).data(using: encoding) else {
            return .failure(BodyFailure(reason: "its redacted text cannot be written back in its own encoding"))
        }
        body = body.prefix(prefix) + written
        return .success(())
    }

    /// Whether `body` has more than one non-empty line.
    private static func isJSONLines(_ body: Data) -> Bool {
        body.split(separator: UInt8(ascii: "\n")).filter { !$0.allSatisfy { [0x20, 0x09, 0x0D].contains($0) } }.count > 1
    }

    // MARK: - JSON

    /// The JSON document `body`, redacted (the same bytes when nothing was removed).
    mutating func redactJSONDocument(_ body: Data, origin: String) -> Result<Data, BodyFailure> {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        } catch {
            let nsError = error as NSError
            let detail = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
            return .failure(BodyFailure(reason: "it looks like JSON but cannot be parsed (\(detail))"))
        }
        var changed = false
        let rewritten = redactJSON(json, path: [], origin: origin, changed: &changed)
        // An object that names a key twice is read with one of its values: the
        // other, which no rule saw, must not be written as it came. Such a
        // document is written as it was read.
        guard changed || JSONKeyCount.written(in: body) != JSONKeyCount.read(in: json) else { return .success(body) }
        guard let data = try? JSONSerialization.data(withJSONObject: rewritten, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]) else {
            return .failure(BodyFailure(reason: "its redacted JSON cannot be written"))
        }
        return .success(data)
    }

    private static func keys(_ path: [JSONStep]) -> [String] {
        path.compactMap { if case let .key(key) = $0 { key } else { nil } }
    }

    /// The JSON text of a number.
    private static func numberText(_ value: Any) -> String? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return number.stringValue
    }

    private mutating func redactJSON(_ value: Any, path: [JSONStep], origin: String, changed: inout Bool) -> Any {
        let keys = Self.keys(path)
        let place = "the JSON field \(keys.joined(separator: ".")) in \(origin)"
        switch value {
        case let object as [String: Any]:
            if !path.isEmpty, removes(.jsonField(keys), "", jsonPath: path, container: true) {
                changed = true
                removeScalars(in: object, origin: place)
                return Redaction.placeholder
            }
            var copy: [String: Any] = [:]
            var renamed = 0
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                var name = key
                if removes(.jsonKey(keys), key, jsonPath: path) {
                    _ = remove(key, origin: "a JSON key at \(keys.isEmpty ? "the top" : keys.joined(separator: ".")) in \(origin)")
                    renamed += 1
                    name = renamed == 1 ? Redaction.placeholder : "\(Redaction.placeholder)-\(renamed)"
                    changed = true
                }
                copy[name] = redactJSON(member, path: path + [.key(key)], origin: origin, changed: &changed)
            }
            return copy
        case let array as [Any]:
            if !path.isEmpty, removes(.jsonField(keys), "", jsonPath: path, container: true) {
                changed = true
                removeScalars(in: array, origin: place)
                return Redaction.placeholder
            }
            return array.enumerated().map { redactJSON($0.element, path: path + [.index($0.offset)], origin: origin, changed: &changed) }
        case let string as String where !path.isEmpty && removes(.jsonField(keys), string, jsonPath: path):
            changed = true
            return remove(string, origin: place)
        case let string as String where Self.looksLikeJSON(Data(string.utf8)):
            // JSON sent as a string of JSON: its fields are redacted as if they were
            // in place, and the string is written again from what was read.
            guard let inner = try? JSONSerialization.jsonObject(with: Data(string.utf8), options: []) else { return string }
            var innerChanged = JSONKeyCount.written(in: Data(string.utf8)) != JSONKeyCount.read(in: inner)
            let redacted = redactJSON(inner, path: path, origin: origin, changed: &innerChanged)
            guard innerChanged, let data = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .withoutEscapingSlashes]) else { return string }
            changed = true
            return String(decoding: data, as: UTF8.self)
        default:
            if !path.isEmpty, let text = Self.numberText(value), removes(.jsonField(keys), text, jsonPath: path, isNumber: true) {
                changed = true
                return remove(text, origin: place)
            }
            return value
        }
    }

    /// Records every string and number inside `value` as removed.
    private mutating func removeScalars(in value: Any, origin: String) {
        switch value {
        case let object as [String: Any]:
            for (key, member) in object {
                _ = remove(key, origin: origin)
                removeScalars(in: member, origin: origin)
            }
        case let array as [Any]:
            for member in array { removeScalars(in: member, origin: origin) }
        case let string as String:
            _ = remove(string, origin: origin)
        default:
            if let text = Self.numberText(value) {
                _ = remove(text, origin: origin)
            }
        }
    }

    // MARK: - NDJSON and server-sent events

    /// Each non-empty line of `body` redacted as a JSON document.
    mutating func redactJSONLines(_ body: inout Data, origin: String) -> Result<Void, BodyFailure> {
        let lines = body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var output: [Data] = []
        for (number, line) in lines.enumerated() {
            let content = Data(line)
            if content.allSatisfy({ [0x20, 0x09, 0x0D].contains($0) }) {
                output.append(content)
                continue
            }
            switch redactJSONDocument(content, origin: "line \(number + 1) of " + origin) {
            case let .success(redacted):
                output.append(redacted)
            case let .failure(failure):
                return .failure(BodyFailure(reason: "its line \(number + 1) " + failure.reason.replacingOccurrences(of: "it looks like JSON but ", with: "")))
            }
        }
        body = Data(output.joined(separator: [UInt8(ascii: "\n")]))
        return .success(())
    }

    /// Each `data:` line of the event stream `body` redacted: as JSON when it is
    /// JSON, as a form when it is one.
    mutating func redactEventStream(_ body: inout Data, origin: String) -> Result<Void, BodyFailure> {
        guard let text = String(data: body, encoding: .utf8) else {
            return .failure(BodyFailure(reason: "its event stream is not UTF-8 text"))
        }
        var rewritten = ""
        // An event stream's lines end in CR LF, LF or CR alone: each is a line end.
        for (number, (line, end)) in Self.lines(of: text).enumerated() {
            defer { rewritten += end }
            guard line.hasPrefix("data:") else {
                rewritten += line
                continue
            }
            var value = line.dropFirst(5)
            let space = value.hasPrefix(" ") ? " " : ""
            value = value.dropFirst(space.count)
            let place = "the data of line \(number + 1) of " + origin
            let data = Data(value.utf8)
            if Self.looksLikeJSON(data) {
                switch redactJSONDocument(data, origin: place) {
                case let .success(redacted):
                    rewritten += "data:" + space + String(decoding: redacted, as: UTF8.self)
                case let .failure(failure):
                    return .failure(BodyFailure(reason: "the data of its line \(number + 1) " + failure.reason.replacingOccurrences(of: "it looks like JSON but ", with: "")))
                }
            } else if value.utf8.contains(UInt8(ascii: "=")), Self.looksLikeForm(value) {
                rewritten += "data:" + space + redactForm(value, origin: "in " + place)
            } else {
                rewritten += line
            }
        }
        if rewritten != text {
            body = Data(rewritten.utf8)
        }
        return .success(())
    }

    /// The lines of `text`, each with the line end that follows it (CR LF, LF or
    /// CR; empty for a last line without one).
    static func lines(of text: String) -> [(line: Substring, end: String)] {
        var lines: [(line: Substring, end: String)] = []
        var start = text.startIndex
        var index = start
        while index < text.endIndex {
            // "\r\n" is one Character of a Swift string.
            let character = text[index]
            if character == "\r\n" || character == "\n" || character == "\r" {
                lines.append((text[start..<index], String(character)))
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        lines.append((text[start...], ""))
        return lines
    }

    // MARK: - Multipart

    /// Each part of the multipart body redacted by its field name (like a form
    /// item), and as JSON when it is JSON.
    mutating func redactMultipart(_ body: inout Data, contentType: String, origin: String) -> Result<Void, BodyFailure> {
        guard let boundary = Self.parameter("boundary", in: contentType), !boundary.isEmpty else {
            return .failure(BodyFailure(reason: "its multipart Content-Type names no boundary"))
        }
        let delimiter = Data(("--" + boundary).utf8)
        var parts: [Data] = []
        var rest = body[...]
        while let range = rest.range(of: delimiter) {
            parts.append(Data(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(Data(rest))
        // parts[0] is the preamble; the last is the epilogue when it follows the
        // close delimiter (`--boundary--`), and a part like the others when the body
        // ends without one.
        let hasEpilogue = parts.count >= 3 && parts[parts.count - 1].starts(with: Data("--".utf8))
        let lastPart = hasEpilogue ? parts.count - 2 : parts.count - 1
        guard lastPart >= 1 else {
            return .failure(BodyFailure(reason: "its multipart body has no part delimited by its boundary"))
        }
        for index in 1...lastPart {
            let part = parts[index]
            guard let split = part.range(of: Data("\r\n\r\n".utf8)) ?? part.range(of: Data("\n\n".utf8)) else {
                return .failure(BodyFailure(reason: "its multipart part \(index) has no blank line after its headers"))
            }
            let headerText = String(decoding: part[..<split.lowerBound], as: UTF8.self)
            var content = Data(part[split.upperBound...])
            let lineEnd = content.suffix(2) == Data("\r\n".utf8) ? Data("\r\n".utf8) : (content.last == UInt8(ascii: "\n") ? Data("\n".utf8) : Data())
            content = content.dropLast(lineEnd.count)
            let disposition = headerText.split(whereSeparator: \.isNewline).first { $0.lowercased().hasPrefix("content-disposition:") }.map(String.init) ?? ""
            // A name given twice, plainly and in RFC 8187's form (`name*=utf-8''…`), is
            // read both ways: either may be the one that looks secret.
            let plainName = Self.parameter("name", in: disposition) ?? ""
            let extendedName = Self.extendedParameter("name", in: disposition)
            let name = extendedName.map { plainName.isEmpty ? $0 : plainName + " (" + $0 + ")" } ?? plainName
            let partType = headerText.split(whereSeparator: \.isNewline).first { $0.lowercased().hasPrefix("content-type:") }.map { String($0.dropFirst("content-type:".count)).trimmingCharacters(in: .whitespaces) }
            let place = "the part \(name) of " + origin
            // Read as Latin-1 when it is not UTF-8: a field the rules remove by its
            // name is removed whatever its bytes.
            let text = String(data: content, encoding: .utf8) ?? String(data: content, encoding: .isoLatin1) ?? ""
            if removes(.queryItem(plainName), text) || extendedName.map({ removes(.queryItem($0), text) }) == true {
                content = Data(remove(text, origin: place).utf8)
            } else {
                if case let .failure(failure) = redactStructured(&content, contentType: partType, origin: place) {
                    return .failure(BodyFailure(reason: "its part \(name) " + failure.reason.replacingOccurrences(of: "it looks like JSON but ", with: "")))
                }
            }
            parts[index] = Data(part[..<split.upperBound]) + content + lineEnd
        }
        body = Data(parts.joined(separator: delimiter))
        return .success(())
    }

    /// The value of the parameter `name*` in RFC 8187's form (`utf-8''…`, percent
    /// encoded) in a header value, decoded; `nil` when there is none.
    static func extendedParameter(_ name: String, in value: String) -> String? {
        guard let raw = parameter(name + "*", in: value) else { return nil }
        // charset'language'value: the value is after the second apostrophe.
        let pieces = raw.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        let encoded = pieces.count == 3 ? pieces[2] : Substring(raw)
        return encoded.removingPercentEncoding ?? String(encoded)
    }

    /// The value of the parameter `name` (`boundary=…`, `name="…"`) in a header value.
    static func parameter(_ name: String, in value: String) -> String? {
        for item in value.split(separator: ";") {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            var found = pair[1].trimmingCharacters(in: .whitespaces)
            if found.count >= 2, found.hasPrefix("\""), found.hasSuffix("\"") {
                found = String(found.dropFirst().dropLast())
            }
            return found
        }
        return nil
    }
}
