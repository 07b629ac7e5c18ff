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
        texts += entry.requestHeaders.map { ("request header \($0.name)", $0.value) }
        if let body = entry.requestBody {
            texts.append(("request body", String(decoding: body, as: UTF8.self)))
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

    /// Whether `text` holds `secret` as it is, percent-encoded or JSON-escaped.
    private static func contains(_ text: String, _ secret: String) -> Bool {
        if text.contains(secret) {
            return true
        }
        if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret, text.contains(encoded) {
            return true
        }
        let escaped = secret.replacingOccurrences(of: "/", with: "\\/")
        return escaped != secret && text.contains(escaped)
    }

    /// `text` with every secret replaced by dots, for messages.
    private static func mask(_ text: String, hiding secrets: [Secret]) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1.value, with: "•••") }
    }
}
