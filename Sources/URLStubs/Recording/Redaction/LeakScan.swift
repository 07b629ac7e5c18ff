import Foundation

/// The check that runs after redaction and before anything is written: no value a
/// rule removed, and no value of a secret-looking environment variable, may appear
/// anywhere in the output.
enum LeakScan {
    /// A secret to look for, and where it came from (never the value itself).
    struct Secret {
        var value: String
        var origin: String
    }

    /// The shortest whole value, and the shortest piece of one, that is looked for:
    /// shorter ones would be found by chance.
    static let minimumValueLength = 6
    static let minimumPieceLength = 8

    /// The secrets to look for: each removed value, the credential pieces inside it
    /// (`Bearer abc…` → `abc…`, `sid=abc…; theme=dark` → `abc…`), and the values of
    /// environment variables whose names look secret.
    static func secrets(removed: [Redactor.Removal], environment: [String: String]) -> [Secret] {
        var secrets: [Secret] = []
        var seen: Set<String> = [Redaction.placeholder]
        func add(_ value: String, _ origin: String) {
            guard seen.insert(value).inserted else { return }
            secrets.append(Secret(value: value, origin: origin))
        }
        for removal in removed {
            if removal.value.count >= minimumValueLength {
                add(removal.value, "the value removed from \(removal.origin)")
            }
            let pieces = removal.value.split { " ;,=&:\t\"'".contains($0) }
            for piece in pieces where piece.count >= minimumPieceLength {
                add(String(piece), "part of the value removed from \(removal.origin)")
            }
        }
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) where Redaction.looksSecret(name) && value.count >= minimumPieceLength {
            add(value, "the value of the environment variable \(name)")
        }
        return secrets
    }

    /// The first place in `entries` where one of `secrets` appears, written for an
    /// error message: `entry 2 (GET https://…/echo), response body: the value removed
    /// from the request header Authorization of entry 1`.
    static func firstLeak(in entries: [CassetteEntry], of secrets: [Secret]) -> String? {
        guard !secrets.isEmpty else { return nil }
        for (index, entry) in entries.enumerated() {
            for (field, text) in texts(of: entry) {
                guard let secret = secrets.first(where: { contains(text, $0.value) }) else { continue }
                let url = mask(entry.url, hiding: secrets)
                return "entry \(index + 1) (\(entry.method) \(url)), \(field): \(secret.origin)"
            }
        }
        return nil
    }

    /// Every text of `entry` that is written, with the field's name.
    private static func texts(of entry: CassetteEntry) -> [(String, String)] {
        var texts: [(String, String)] = [("URL", entry.url)]
        if let decoded = entry.url.removingPercentEncoding, decoded != entry.url {
            texts.append(("URL", decoded))
        }
        texts += entry.requestHeaders.map { ("request header \($0.name)", $0.value) }
        if let body = entry.requestBody {
            let text = String(decoding: body, as: UTF8.self)
            texts.append(("request body", text))
            if let decoded = text.removingPercentEncoding, decoded != text {
                texts.append(("request body", decoded))
            }
        }
        switch entry.answer {
        case let .response(_, headers, body):
            texts += headers.map { ("response header \($0.name)", $0.value) }
            texts.append(("response body", String(decoding: body, as: UTF8.self)))
        case let .failure(_, message):
            texts.append(("error", message))
        }
        return texts
    }

    /// Whether `text` holds `secret` in any of its ``forms(of:)``.
    private static func contains(_ text: String, _ secret: String) -> Bool {
        forms(of: secret).contains { text.contains($0) }
    }

    /// The ways `secret` may be spelled in a URL, a form or JSON: as it is,
    /// percent-encoded (strictly, or as URLs usually are), with `+` for spaces,
    /// and with `/` escaped.
    private static func forms(of secret: String) -> [String] {
        var forms = [secret]
        for allowed in [CharacterSet.alphanumerics, .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+")), .urlPathAllowed] {
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: allowed) {
                forms += [encoded, encoded.lowercased() == encoded ? encoded : Self.lowercasingEscapes(encoded)]
            }
        }
        forms.append(secret.replacingOccurrences(of: " ", with: "+"))
        forms.append(secret.replacingOccurrences(of: "/", with: "\\/"))
        var seen: Set<String> = []
        return forms.filter { seen.insert($0).inserted }
    }

    /// `text` with the hex digits of its percent escapes lowercased.
    private static func lowercasingEscapes(_ text: String) -> String {
        var result = ""
        var pending = 0
        for character in text {
            if character == "%" {
                pending = 2
                result.append(character)
            } else if pending > 0 {
                pending -= 1
                result.append(contentsOf: character.lowercased())
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `text` with every form of every secret replaced by dots, for messages.
    private static func mask(_ text: String, hiding secrets: [Secret]) -> String {
        secrets.flatMap { forms(of: $0.value) }.sorted { $0.count > $1.count }.reduce(text) { $0.replacingOccurrences(of: $1, with: "•••") }
    }
}
