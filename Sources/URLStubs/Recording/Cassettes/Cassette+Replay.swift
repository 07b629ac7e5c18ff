#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Turning cassette entries into stubs.
enum CassetteReplay {
    /// Reads the cassette at `file`.
    static func read(_ file: URL) throws(CassetteError) -> [CassetteEntry] {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            if !FileManager.default.fileExists(atPath: file.path) {
                throw .missingFile(path: file.path)
            }
            throw .unreadable(path: file.path, reason: error.localizedDescription)
        }
        do {
            return try HARFile.decode(data).cassetteEntries
        } catch {
            throw .unreadable(path: file.path, reason: RecordingMessages.decodingFailure(error))
        }
    }

    /// Registers `entries` in `scope`, one stub per distinct request (method, URL
    /// and body) answering its entries in order, each once.
    static func register(_ entries: [CassetteEntry], from file: URL, in scope: StubScope, location: StubSourceLocation) {
        var order: [String] = []
        var groups: [String: [CassetteEntry]] = [:]
        for entry in entries {
            let key = entry.method + " " + entry.url + "\n" + (entry.requestBody.map { $0.base64EncodedString() } ?? "-")
            if groups[key] == nil {
                order.append(key)
            }
            groups[key, default: []].append(entry)
        }
        for key in order {
            let group = groups[key]!
            let first = group[0]
            let answers = group.map { Self.response(for: $0) }
            let answer = answers.count == 1 ? answers[0] : StubResponse.sequence(answers)
            _ = StubRegistry.shared.register(
                pattern(for: first),
                source: .fixed(answer),
                expectation: .atMost(group.count),
                location: location,
                origin: .cassette(file),
                in: scope
            )
        }
    }

    /// The pattern that matches the entry's request: its method, its URL with
    /// exactly its query items, and its body; redacted values match any value.
    static func pattern(for entry: CassetteEntry) -> RequestPattern {
        var base = entry.url
        var query: [QueryItem] = []
        if let fragment = base.firstIndex(of: "#") {
            base = String(base[..<fragment])
        }
        if var components = URLComponents(string: base), components.user != nil {
            components.user = nil
            components.password = nil
            base = components.string ?? base
        }
        if let mark = base.firstIndex(of: "?") {
            if let url = URL(string: base), let target = RequestTarget(url) {
                query = target.queryItems ?? []
            }
            base = String(base[..<mark])
        }
        // A redacted path segment matches any segment.
        if let scheme = base.range(of: "://"), let slash = base[scheme.upperBound...].firstIndex(of: "/") {
            base = String(base[...slash]) + base[base.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false)
                .map { $0 == Redaction.placeholder ? "*" : String($0) }.joined(separator: "/")
        }
        return RequestPattern(method: entry.method, url: base)
            .adding(.recordedQuery(query))
            .adding(.recordedBody(entry.requestBody))
    }

    /// What replaying the entry answers.
    static func response(for entry: CassetteEntry) -> StubResponse {
        switch entry.answer {
        case let .response(status, headers, body):
            return .data(body, status: status, headers: CassetteEntry.dictionary(headers))
        case let .failure(code, message):
            // Failable on Linux, not on Apple platforms: an optional either way.
            let known: URLError.Code? = URLError.Code(rawValue: code)
            return .failure(URLError(known ?? .unknown, userInfo: [NSLocalizedDescriptionKey: message]))
        }
    }
}
