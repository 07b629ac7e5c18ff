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
        // already text is taken as decoded. Compressed data that a compressor made
        // is never such text, but a stream of stored blocks can be made to look
        // like it: text that also decodes whole as its label says is both, and is
        // not written.
        if isText(body) {
            guard case .decoded = decode(body, codings: codings, whole: true) else { return .plain(body) }
            return .undecodable(RecordingMessages.textThatInflates)
        }
        return decode(body, codings: codings)
    }

    /// `body` with `codings` undone, last first; with `whole`, only when each layer
    /// decodes to its last byte.
    private static func decode(_ body: Data, codings: [String], whole: Bool = false) -> Decoded {
        var bytes = body
        for coding in codings.reversed() {
            do {
                switch coding {
                case "gzip", "x-gzip":
                    bytes = try Inflater.gunzip(bytes)
                case "deflate" where whole:
                    guard let inflated = Inflater.inflateWhole(bytes) else {
                        return .undecodable("its deflate data does not end at its last byte")
                    }
                    bytes = inflated
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

    /// How many layers of compression are undone in a body no `Content-Encoding`
    /// names (gzip of gzip, ...).
    static let sniffedLayerLimit = 8

    /// What a reader of `data` could inflate out of it whatever its labels say, one
    /// layer inside the other, outermost first (at most ``sniffedLayerLimit``):
    /// each layer is gzip data (`1F 8B 08`), zlib data (a deflate header whose
    /// check bits are right; with a preset dictionary, what inflates without it),
    /// or raw DEFLATE data, inflated as far as it goes, since a stream cut short or
    /// followed by other bytes still gives up what comes before. Raw DEFLATE is
    /// tried on data that is not text, and on text only when it inflates whole, to
    /// its last byte: a stream of stored blocks can be made to look like text.
    ///
    /// The layers are for searching, never for writing: bytes that are not
    /// compressed at all may inflate to a few bytes of noise.
    ///
    /// The layers together hold at most ``Inflater/limit`` bytes and a little more:
    /// none is inflated once they reach it.
    static func hiddenLayers(of data: Data) -> [Data] {
        var layers: [Data] = []
        var outer = data
        var total = 0
        while layers.count < sniffedLayerLimit, total < Inflater.limit, let inner = inflatedLayer(of: outer), !inner.isEmpty {
            layers.append(inner)
            total += inner.count
            outer = inner
        }
        return layers
    }

    /// The layer ``hiddenLayers(of:)`` finds directly inside `data`, or `nil`.
    private static func inflatedLayer(of data: Data) -> Data? {
        let bytes = Array(data.prefix(3))
        if bytes == [0x1F, 0x8B, 0x08] {
            return Inflater.gunzipRecovering(data)
        }
        if let start = Inflater.zlibDataOffset(bytes) {
            // FDICT: a dictionary id follows the header, and the data may refer
            // back into the dictionary; what comes before such a reference is
            // recovered without it. Raw DEFLATE data can open like a zlib header
            // too: whichever gives more.
            let zlib = Inflater.inflateRecovering(data, from: start)
            let raw = Inflater.inflateRecovering(data, from: 0)
            return raw.count > zlib.count ? raw : zlib
        }
        return isText(data) ? Inflater.inflateWhole(data) : Inflater.inflateRecovering(data, from: 0)
    }

    /// Whether `data` is UTF-8 text with no control characters but whitespace: what
    /// a decoded body looks like, and compressed data never does.
    static func isText(_ data: Data) -> Bool {
        guard let text = String(data: data, encoding: .utf8) else { return false }
        return !text.unicodeScalars.contains { $0.value < 0x20 && !["\n", "\r", "\t"].contains($0) }
    }
}
