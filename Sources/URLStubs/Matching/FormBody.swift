#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The fields of a form body, in order, or why the body is not a form.
enum FormBody {
    /// The fields of `body` sent with the content type `contentType`, or a
    /// description of the body when it is not a form.
    static func fields(of body: Data?, contentType: String?) -> Result<[QueryItem], NotAForm> {
        guard let body, !body.isEmpty else {
            return .failure(NotAForm(description: "no body"))
        }
        let mediaType = contentType.map { $0.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? "" }
        switch mediaType {
        case nil, "application/x-www-form-urlencoded":
            return .success(urlEncoded(String(decoding: body, as: UTF8.self)))
        case "multipart/form-data":
            guard let boundary = contentType.flatMap(Self.boundary) else {
                return .failure(NotAForm(description: "a multipart/form-data body without a boundary"))
            }
            return .success(multipart(body, boundary: boundary))
        case let other?:
            return .failure(NotAForm(description: "a body of type \(other), not a form"))
        }
    }

    /// Why a body is not a form, in words: `no body`, `a body of type application/json, not a form`.
    struct NotAForm: Error {
        let description: String
    }

    /// The `name=value` pairs of `text`, with `+` read as a space and `%XX` decoded.
    static func urlEncoded(_ text: String) -> [QueryItem] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { piece in
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String {
                URLText.percentDecoded(Substring(part.replacingOccurrences(of: "+", with: " ")))
            }
            return QueryItem(name: decoded(parts[0]), value: parts.count > 1 ? decoded(parts[1]) : nil)
        }
    }

    /// The `boundary` parameter of a multipart content type, unquoted.
    private static func boundary(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The named parts of a multipart body: each part's `name` from its
    /// `Content-Disposition` and its content as UTF-8 text.
    private static func multipart(_ body: Data, boundary: String) -> [QueryItem] {
        let delimiter = Data(("--" + boundary).utf8)
        let separator = Data("\r\n\r\n".utf8)
        var fields: [QueryItem] = []
        var start = body.range(of: delimiter)?.upperBound
        while let partStart = start, let next = body.range(of: delimiter, in: partStart..<body.endIndex) {
            defer { start = next.upperBound }
            let part = body[partStart..<next.lowerBound]
            guard let headerEnd = part.range(of: separator) else { continue }
            let headers = String(decoding: part[part.startIndex..<headerEnd.lowerBound], as: UTF8.self)
            guard let name = Self.partName(headers) else { continue }
            var content = part[headerEnd.upperBound...]
            if content.suffix(2) == Data("\r\n".utf8) {
                content = content.dropLast(2)
            }
            fields.append(QueryItem(name: name, value: String(decoding: content, as: UTF8.self)))
        }
        return fields
    }

    /// The `name` parameter of a part's `Content-Disposition: form-data` header.
    private static func partName(_ headers: String) -> String? {
        for line in headers.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
            let field = line.split(separator: ":", maxSplits: 1)
            guard field.count == 2, field[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            for parameter in field[1].split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "name" else { continue }
                let value = pair[1].trimmingCharacters(in: .whitespaces)
                return value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
            }
        }
        return nil
    }
}
