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
        let har: HARFile
        do {
            har = try HARFile.decode(data)
        } catch {
            throw .unreadable(path: file.path, reason: RecordingMessages.decodingFailure(error))
        }
        do {
            return try har.cassetteEntries
        } catch {
            throw .unreadable(path: file.path, reason: RecordingMessages.invalidBase64(entry: error.entry, isRequest: error.isRequest))
        }
    }

    /// Registers `entries` in `scope`, one stub per distinct request (method, URL,
    /// and what `rules` compare of the body and header fields) answering its
    /// entries in order, each once.
    static func register(_ entries: [CassetteEntry], from file: URL, in scope: StubScope, location: StubSourceLocation, rules: CassetteRules = .standard) {
        var groups: [[CassetteEntry]] = []
        var byKey: [String: [Int]] = [:]
        for entry in entries {
            let key = entry.method + " " + entry.url + "\n" + rules.groupKey(for: entry)
            // With matchers of the user's, entries of one key that the matchers tell
            // apart are groups of their own.
            let index = byKey[key]?.first { rules.sameRequests(entry, groups[$0][0]) }
            if let index {
                groups[index].append(entry)
            } else {
                byKey[key, default: []].append(groups.count)
                groups.append([entry])
            }
        }
        for group in groups {
            let first = group[0]
            let answers = group.map { Self.response(for: $0) }
            let source: StubEntry.Source
            if rules.echoes {
                // Made for each request: the answer takes fields from it. The
                // entries answer in order; the expectation stops the one after.
                let next = Locked(0)
                source = .dynamic { request in
                    let index = next.withLock { count in
                        defer { count += 1 }
                        return count
                    }
                    return rules.answer(answers[min(index, answers.count - 1)], to: request)
                }
            } else {
                source = .fixed(answers.count == 1 ? answers[0] : StubResponse.sequence(answers))
            }
            _ = StubRegistry.shared.register(
                pattern(for: first, rules: rules),
                source: source,
                expectation: .atMost(group.count),
                location: location,
                origin: .cassette(file),
                in: scope
            )
        }
    }

    /// The pattern that matches the entry's request: its method, its URL with
    /// exactly its query items, its body, and what else `rules` compare; redacted
    /// values match any value.
    static func pattern(for entry: CassetteEntry, rules: CassetteRules = .standard) -> RequestPattern {
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
            if let url = URL(string: base), let target = RequestTarget.of(absoluteString: url.absoluteString) {
                query = target.listItems ?? []
            }
            base = String(base[..<mark])
        }
        // A redacted path segment matches any segment; one a pattern rule cut into
        // (`URLSTUBS-REDACTED.pdf`) any segment its placeholder can stand in.
        var cutSegments: [(index: Int, recorded: String)] = []
        if let scheme = base.range(of: "://"), let slash = base[scheme.upperBound...].firstIndex(of: "/") {
            let segments = base[base.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false)
            base = String(base[...slash]) + segments.enumerated().map { index, segment in
                guard segment.contains(Redaction.placeholder) else { return String(segment) }
                if segment != Redaction.placeholder {
                    // Its escapes in normal form, as the request's path is matched.
                    cutSegments.append((index, URLText.percentEncoded(segment) { $0 != UInt8(ascii: "%") }))
                }
                return "*"
            }.joined(separator: "/")
        }
        var pattern = RequestPattern(method: entry.method, url: base).adding(.recordedQuery(query))
        for (index, recorded) in cutSegments {
            pattern = pattern.adding(.predicate(RequestPattern.Predicate("path segment \(index + 1) like \(recorded)") { request in
                let segments = request.pathAsMatched.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
                return index < segments.count && Redaction.value(String(segments[segments.startIndex + index]), matches: recorded)
            }))
        }
        guard !rules.matching.isStandard else {
            return pattern.adding(.recordedBody(entry.requestBody))
        }
        let recordedBody = entry.requestBody
        if rules.matching.bodies == .json {
            let text = recordedBody.map(RequestPattern.bodyText) ?? "no body"
            let ignoring = rules.matching.ignoredJSONFields.isEmpty ? "" : " ignoring JSON " + rules.matching.ignoredJSONFields.joined(separator: ", ")
            pattern = pattern.adding(.predicate(RequestPattern.Predicate("body \(text)\(ignoring)") { rules.body($0.body, matches: recordedBody) }))
        }
        if rules.matching.headers.compared {
            let fields = entry.requestHeaders
            pattern = pattern.adding(.predicate(RequestPattern.Predicate("the recorded header fields (\(rules.matching))") { rules.headers($0.headers, match: fields) }))
        }
        if !rules.matching.matchers.isEmpty {
            // An entry whose URL is not a URL cannot be shown to the user's rules:
            // it matches nothing rather than skipping them.
            let recorded = recordedRequest(of: entry)
            for matcher in rules.matching.matchers {
                pattern = pattern.adding(.predicate(RequestPattern.Predicate(matcher.description) { request in recorded.map { matcher.matches(request, $0) } ?? false }))
            }
        }
        return pattern
    }

    /// The entry's request as a ``RecordedRequest``, for the user's matchers; `nil`
    /// when its URL is not a URL.
    static func recordedRequest(of entry: CassetteEntry) -> RecordedRequest? {
        guard let url = URL(string: entry.url) else { return nil }
        var request = URLRequest(url: url)
        request.httpMethod = entry.method
        for field in entry.requestHeaders {
            request.addValue(field.value, forHTTPHeaderField: field.name)
        }
        request.httpBody = entry.requestBody
        return RecordedRequest(urlRequest: request, body: entry.requestBody, sequenceNumber: 0)
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
