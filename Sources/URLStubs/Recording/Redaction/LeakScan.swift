import Foundation

/// The check that runs after redaction and before anything is written: no value a
/// rule removed, no credential inside one, and no value of a secret-looking
/// environment variable may appear anywhere in the output, in any spelling
/// ``SecretSearch`` knows.
enum LeakScan {
    /// A secret to look for, and where it came from (never the value itself).
    struct Secret {
        var value: String
        var origin: String
    }

    /// The shortest removed value that is looked for. A shorter one is still
    /// replaced where it was removed; it is only not looked for elsewhere, where
    /// three characters would be found by chance.
    static let minimumValueLength = 4
    /// Environment variables whose names hold a secret word but whose values are
    /// not secrets, and turn up in every report: the shell's working directories
    /// (`PWD`: "pwd") and the agents' socket paths ("auth", "key").
    static let notSecretEnvironmentNames: Set<String> = ["PWD", "OLDPWD", "SSH_AUTH_SOCK", "GPG_AGENT_INFO", "SSH_AGENT_PID"]
    /// The shortest piece of a removed value (`Bearer abc…` → `abc…`), removed
    /// value of digits only, and environment variable value that is looked for.
    static let minimumPieceLength = 6
    /// The shortest run of base64 characters that counts as a secret's base64.
    static let minimumBase64Length = 6

    /// Pieces of removed values that are words of the protocol, not secrets.
    private static let protocolWords: Set<String> = [
        "bearer", "basic", "digest", "token", "negotiate", "httponly", "secure", "samesite",
        "expires", "max-age", "domain", "path", "partitioned", "strict", "lax", "none",
        "username", "realm", "nonce", "response", "algorithm", "opaque", "charset",
    ]

    /// The secrets to look for: each removed value; the credential pieces inside it
    /// (`Bearer abc…` → `abc…`, `sid=abc…; theme=dark` → `abc…`); the decoded
    /// `user:password` of a `Basic` credential, and the password alone; and the
    /// values of environment variables whose names look secret.
    static func secrets(removed: [Redactor.Removal], environment: [String: String]) -> [Secret] {
        var secrets: [Secret] = []
        var seen: Set<String> = []
        func add(_ value: String, _ origin: String, minimum: Int) {
            guard value.count >= minimum,
                  !Redaction.placeholder.lowercased().contains(value.lowercased()),
                  !protocolWords.contains(value.lowercased()),
                  seen.insert(value).inserted else { return }
            secrets.append(Secret(value: value, origin: origin))
        }
        func addPieces(of value: String, _ origin: String) {
            for piece in value.split(whereSeparator: { " ;,=&:\t\"'".contains($0) }) {
                add(String(piece), origin, minimum: minimumPieceLength)
            }
        }
        for removal in removed {
            // Digits alone (a PIN, a number) turn up by chance more often than letters.
            let minimum = removal.value.allSatisfy(\.isASCII) && removal.value.allSatisfy(\.isNumber) ? minimumPieceLength : minimumValueLength
            add(removal.value, "the value removed from \(removal.origin)", minimum: minimum)
            addPieces(of: removal.value, "part of the value removed from \(removal.origin)")
            if let credentials = basicCredentials(in: removal.value) {
                let origin = "the decoded Basic credentials removed from \(removal.origin)"
                add(credentials, origin, minimum: minimumValueLength)
                if let colon = credentials.firstIndex(of: ":") {
                    add(String(credentials[credentials.index(after: colon)...]), origin, minimum: minimumValueLength)
                }
            }
        }
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) where Redaction.looksSecret(name) && !notSecretEnvironmentNames.contains(name) {
            add(value, "the value of the environment variable \(name)", minimum: minimumPieceLength)
        }
        return secrets
    }

    /// The `user:password` of a `Basic` credential in `value`, decoded.
    static func basicCredentials(in value: String) -> String? {
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic" else { return nil }
        var encoded = parts[1].trimmingCharacters(in: .whitespaces)
        encoded += String(repeating: "=", count: (4 - encoded.count % 4) % 4)
        guard let data = Data(base64Encoded: encoded), let text = String(data: data, encoding: .utf8) else { return nil }
        return text
    }

    /// The first place in `entries` where one of `secrets` appears, written for an
    /// error message: `entry 2 (GET https://…/echo), response body: the value removed
    /// from the request header Authorization of entry 1`.
    static func firstLeak(in entries: [CassetteEntry], of secrets: [Secret]) -> String? {
        let search = SecretSearch(secrets)
        guard !search.isEmpty else { return nil }
        for (index, entry) in entries.enumerated() {
            guard let (field, secret) = firstLeak(in: entry, search: search) else { continue }
            return "entry \(index + 1) (\(entry.method) \(describe(entry.url, search: search))), \(field): \(secret.origin)"
        }
        return nil
    }

    /// `url` with the secrets masked, or words saying it is withheld when a secret
    /// would still be in it.
    static func describe(_ url: String, search: SecretSearch) -> String {
        let masked = search.mask(url)
        return search.firstSecret(in: masked) == nil ? masked : "(its URL is withheld: it holds a secret)"
    }

    private static func firstLeak(in entry: CassetteEntry, search: SecretSearch) -> (String, Secret)? {
        if let secret = search.firstSecret(in: entry.url) {
            return ("URL", secret)
        }
        if let found = firstLeak(inHeaders: entry.requestHeaders, "request", search: search) {
            return found
        }
        if let body = entry.requestBody, let secret = firstSecret(inBody: body, headers: entry.requestHeaders, search: search) {
            return ("request body", secret)
        }
        switch entry.answer {
        case let .response(_, headers, body):
            if let found = firstLeak(inHeaders: headers, "response", search: search) {
                return found
            }
            if let secret = firstSecret(inBody: body, headers: headers, search: search) {
                return ("response body", secret)
            }
        case let .failure(_, message):
            if let secret = search.firstSecret(in: message) {
                return ("error", secret)
            }
        }
        return nil
    }

    private static func firstLeak(inHeaders headers: [CassetteEntry.Field], _ side: String, search: SecretSearch) -> (String, Secret)? {
        for (position, header) in headers.enumerated() {
            if let secret = search.firstSecret(in: header.name) {
                return ("the name of \(side) header \(position + 1)", secret)
            }
            if let secret = search.firstSecret(in: header.value) {
                return ("\(side) header \(search.mask(header.name))", secret)
            }
        }
        return nil
    }

    /// The first secret in `body` as written, or in what its `Content-Encoding`
    /// decodes to.
    private static func firstSecret(inBody body: Data, headers: [CassetteEntry.Field], search: SecretSearch) -> Secret? {
        if let secret = search.firstSecret(inBody: body) {
            return secret
        }
        var readable = body
        if case let .decoded(decoded) = ContentCoding.decode(body, contentEncoding: CassetteEntry.value(of: "Content-Encoding", in: headers)) {
            if let secret = search.firstSecret(inBody: decoded) {
                return secret
            }
            readable = decoded
        }
        // Compressed data whatever its labels say (`application/gzip`, or none): a
        // reader of the cassette can inflate it, so the scan does too, layer by layer.
        for layer in ContentCoding.hiddenLayers(of: readable) {
            if let secret = search.firstSecret(inBody: layer) {
                return secret
            }
        }
        return nil
    }
}
