#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One request and its answer as a cassette stores it: what redaction edits and
/// what a HAR entry is written from and read into.
struct CassetteEntry: Equatable {
    /// An HTTP header field, in the order it was sent.
    struct Field: Equatable {
        var name: String
        var value: String
    }

    /// What the request got.
    enum Answer: Equatable {
        case response(status: Int, headers: [Field], body: Data)
        /// The request failed with the `URLError` code `code` and this description.
        case failure(code: Int, message: String)
    }

    var method: String
    var url: String
    var requestHeaders: [Field]
    var requestBody: Data?
    var answer: Answer
}

extension CassetteEntry {
    /// Whether redaction left its placeholder anywhere in the entry: its URL, a
    /// header, or a body.
    var holdsPlaceholder: Bool {
        let mark = Redaction.placeholder
        let placeholderBytes = Data(mark.utf8)
        var bodies = [requestBody ?? Data()]
        var texts = [url] + requestHeaders.flatMap { [$0.name, $0.value] }
        switch answer {
        case let .response(_, headers, body):
            bodies.append(body)
            texts += headers.flatMap { [$0.name, $0.value] }
        case let .failure(_, message):
            texts.append(message)
        }
        return texts.contains { $0.contains(mark) } || bodies.contains { $0.range(of: placeholderBytes) != nil }
    }

    /// The entry for a request the scope logged, or `nil` while it has no outcome
    /// that can be replayed (still waiting, or cancelled).
    init?(_ exchange: RecordedExchange) {
        let request = exchange.request
        switch exchange.outcome {
        case let .response(status, headers, body):
            answer = .response(status: status, headers: Self.fields(headers), body: body)
        case let .failure(error):
            answer = .failure(code: (error as? URLError)?.errorCode ?? URLError.Code.unknown.rawValue, message: error.localizedDescription)
        case let .abandoned(error):
            answer = .failure(code: error.errorCode, message: error.localizedDescription)
        case .waiting, .cancelled:
            return nil
        }
        method = request.method
        url = request.url.absoluteString
        requestHeaders = Self.fields(request.headers)
        requestBody = request.body
    }

    /// Header fields in a stable order: by name, case-insensitively.
    static func fields(_ headers: [String: String]) -> [Field] {
        headers
            .map { Field(name: $0.key, value: $0.value) }
            .sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
    }

    /// The response header fields as a dictionary: a field repeated (each
    /// `Set-Cookie` of a browser's HAR export, say) is one, its values joined with
    /// `, ` in order, as Foundation joins a response's repeated fields; named as
    /// first written.
    static func dictionary(_ fields: [Field]) -> [String: String] {
        var headers: [String: String] = [:]
        for field in fields {
            if let existing = headers.keys.first(where: { $0.caseInsensitiveCompare(field.name) == .orderedSame }) {
                headers[existing]! += ", " + field.value
            } else {
                headers[field.name] = field.value
            }
        }
        return headers
    }

    /// The value of the header field `name` among `fields`, compared case-insensitively.
    static func value(of name: String, in fields: [Field]) -> String? {
        fields.last { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
