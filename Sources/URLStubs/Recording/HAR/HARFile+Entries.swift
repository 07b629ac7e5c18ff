import Foundation

extension HARFile {
    /// A HAR file holding `entries`, in order.
    init(_ entries: [CassetteEntry]) {
        log = Log(entries: entries.map(Entry.init))
    }

    /// The entries of the file, in order.
    ///
    /// - Throws: ``CassetteEntry/InvalidBody`` naming the first entry whose body is
    ///   marked base64 but is not.
    var cassetteEntries: [CassetteEntry] {
        get throws(CassetteEntry.InvalidBody) {
            var entries: [CassetteEntry] = []
            entries.reserveCapacity(log.entries.count)
            for (index, entry) in log.entries.enumerated() {
                guard let decoded = CassetteEntry(entry) else {
                    throw CassetteEntry.InvalidBody(entry: index, isRequest: entry.request.postData.map { HARText.decode($0.text, encoding: $0.encoding) == nil } ?? false)
                }
                entries.append(decoded)
            }
            return entries
        }
    }

    /// The file's bytes: pretty-printed with sorted keys, so that recording the
    /// same exchanges again writes the same bytes and a changed entry shows as a
    /// small diff.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    /// Reads a HAR file.
    static func decode(_ data: Data) throws -> HARFile {
        try JSONDecoder().decode(HARFile.self, from: data)
    }
}

extension HARFile.Entry {
    init(_ entry: CassetteEntry) {
        let queryString = URLComponents(string: entry.url)?.queryItems?.map { HARFile.NameValue(name: $0.name, value: $0.value ?? "") } ?? []
        let postData = entry.requestBody.map { body -> HARFile.PostData in
            let (text, encoding) = HARText.encode(body)
            return HARFile.PostData(mimeType: CassetteEntry.value(of: "Content-Type", in: entry.requestHeaders) ?? "", text: text, encoding: encoding)
        }
        let request = HARFile.Request(
            method: entry.method,
            url: entry.url,
            headers: entry.requestHeaders.map { HARFile.NameValue(name: $0.name, value: $0.value) },
            queryString: queryString,
            postData: postData,
            bodySize: entry.requestBody?.count ?? 0
        )
        var response: HARFile.Response
        switch entry.answer {
        case let .response(status, headers, body):
            let (text, encoding) = HARText.encode(body)
            let mimeType = CassetteEntry.value(of: "Content-Type", in: headers) ?? ""
            response = HARFile.Response(
                status: status,
                statusText: HTTPReason.reason(for: status),
                headers: headers.map { HARFile.NameValue(name: $0.name, value: $0.value) },
                content: HARFile.Content(size: body.count, mimeType: mimeType, text: body.isEmpty ? nil : text, encoding: body.isEmpty ? nil : encoding),
                bodySize: body.count,
                error: nil
            )
            if RedirectHop.isRedirect(status), let location = CassetteEntry.value(of: "Location", in: headers) {
                response.redirectURL = location
            }
        case let .failure(code, message):
            response = HARFile.Response(
                status: 0,
                statusText: "",
                headers: [],
                content: HARFile.Content(size: 0, mimeType: "", text: nil, encoding: nil),
                bodySize: -1,
                error: message,
                errorCode: code
            )
        }
        self.init(request: request, response: response)
    }
}

extension CassetteEntry {
    /// A body of a HAR entry marked base64 whose text is not base64: replaying it as
    /// an empty body would hide the damage.
    struct InvalidBody: Error {
        /// The entry's index in the file.
        let entry: Int
        /// The request's body; otherwise the response's.
        let isRequest: Bool
    }

    /// The entry of a HAR file, or `nil` when one of its bodies is marked base64
    /// but is not.
    init?(_ entry: HARFile.Entry) {
        method = entry.request.method.uppercased()
        url = entry.request.url
        requestHeaders = entry.request.headers.map { Field(name: $0.name, value: $0.value) }
        if let postData = entry.request.postData {
            guard let body = HARText.decode(postData.text, encoding: postData.encoding) else { return nil }
            requestBody = body
        } else {
            requestBody = nil
        }
        let response = entry.response
        if response.status == 0 {
            answer = .failure(code: response.errorCode ?? URLError.Code.unknown.rawValue, message: response.error ?? RecordingMessages.unexplainedFailure)
        } else {
            var body = Data()
            if let text = response.content.text {
                guard let decoded = HARText.decode(text, encoding: response.content.encoding) else { return nil }
                body = decoded
            }
            answer = .response(status: response.status, headers: response.headers.map { Field(name: $0.name, value: $0.value) }, body: body)
        }
    }
}

/// How a body is spelled in a HAR file.
enum HARText {
    /// UTF-8 text as it is, anything else in base64.
    static func encode(_ body: Data) -> (text: String, encoding: String?) {
        // Text only when it spells the same bytes back (a byte-order mark would not).
        if let text = String(data: body, encoding: .utf8), !text.contains("\u{0}"), Data(text.utf8) == body {
            return (text, nil)
        }
        return (body.base64EncodedString(), "base64")
    }

    /// The bytes `text` stands for, or `nil` when `encoding` is `base64` and `text`
    /// is not base64 (white space and line breaks aside).
    static func decode(_ text: String, encoding: String?) -> Data? {
        if encoding?.lowercased() == "base64" {
            return Data(base64Encoded: text.filter { !$0.isWhitespace })
        }
        return Data(text.utf8)
    }
}

/// The reason phrase of common HTTP statuses, for HAR's `statusText`.
enum HTTPReason {
    static func reason(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: ""
        }
    }
}
