import Foundation

/// The `Content-Encoding` of a body, undone so that redaction and the leak scan
/// see what a reader of the cassette could recover.
enum ContentCoding {
    /// A body as it can be read.
    enum Decoded: Equatable {
        /// The body has no encoding (or `identity`), or it is already decoded: the
        /// bytes are the readable body.
        case plain(Data)
        /// The body was encoded; these are its decoded bytes.
        case decoded(Data)
        /// The body is encoded in a way that cannot be undone here; the reason says
        /// why, for the marker that replaces it.
        case undecodable(String)
    }

    /// `body` with the encodings named by `contentEncoding` (a header value such as
    /// `gzip` or `deflate, gzip`) undone, last first.
    ///
    /// URLSession decodes the response bodies it can and keeps the header: a body
    /// that is already UTF-8 text is taken as decoded.
    static func decode(_ body: Data, contentEncoding: String?) -> Decoded {
        let codings = (contentEncoding ?? "")
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        guard !codings.isEmpty else { return .plain(body) }
        // URLSession decodes what it can and keeps the header: a body that is
        // already text is taken as decoded (compressed data is never such text).
        if isText(body) {
            return .plain(body)
        }
        var bytes = body
        for coding in codings.reversed() {
            do {
                switch coding {
                case "gzip", "x-gzip":
                    bytes = try Inflater.gunzip(bytes)
                case "deflate":
                    bytes = try Inflater.inflateZlibOrRaw(bytes)
                default:
                    return .undecodable("its Content-Encoding \(coding) cannot be decoded by URLStubs (only gzip and deflate can)")
                }
            } catch {
                return .undecodable("its \(coding) data cannot be inflated (\(error.reason))")
            }
        }
        return .decoded(bytes)
    }

    /// Whether `data` is UTF-8 text with no control characters but whitespace: what
    /// a decoded body looks like, and compressed data never does.
    static func isText(_ data: Data) -> Bool {
        guard let text = String(data: data, encoding: .utf8) else { return false }
        return !text.unicodeScalars.contains { $0.value < 0x20 && !["\n", "\r", "\t"].contains($0) }
    }
}
