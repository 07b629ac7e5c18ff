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

    /// How many layers of compression the leak scan undoes in a body no
    /// `Content-Encoding` names (gzip of gzip, ...).
    static let sniffedLayerLimit = 8

    /// `data` inflated when it opens as gzip (`1F 8B 08`) or zlib (a deflate header
    /// whose check bits are right) data and inflates; `nil` otherwise.
    static func inflateSniffed(_ data: Data) -> Data? {
        let bytes = Array(data.prefix(3))
        if bytes == [0x1F, 0x8B, 0x08] {
            return try? Inflater.gunzip(data)
        }
        if bytes.count >= 2, bytes[0] & 0x0F == 8, (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0 {
            return try? Inflater.inflateZlibOrRaw(data)
        }
        return nil
    }

    /// Whether `data` is UTF-8 text with no control characters but whitespace: what
    /// a decoded body looks like, and compressed data never does.
    static func isText(_ data: Data) -> Bool {
        guard let text = String(data: data, encoding: .utf8) else { return false }
        return !text.unicodeScalars.contains { $0.value < 0x20 && !["\n", "\r", "\t"].contains($0) }
    }
}
