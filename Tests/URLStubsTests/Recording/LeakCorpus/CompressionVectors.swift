#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Secrets in compressed data a reader of the cassette can inflate, though no
/// label says so or the label is wrong: what an independent review found the leak
/// scan and redaction missed, each written before its fix.
///
/// The compressed fixtures were made with zlib (Python's `zlib` and `gzip`); the
/// payload of each is ``payload``, which holds the bearer token twice.
enum CompressionVectors {
    static let token = ScanVectors.token
    static let payload = "echo \(token) and again \(token)"

    /// ``payload`` as one gzip member.
    static var gzipMember: Data { Data(base64Encoded: "H4sIAAAAAAACA0tNzshXKDZOLjIu0Q0xyE7N0zUxMjFSSMxLUUhMT8zMw5QDAMlEZeMyAAAA")! }

    /// `member`, a gzip member, with an extra field (FEXTRA) of `length` bytes in
    /// its header.
    static func withExtraField(_ member: Data, length: Int) -> Data {
        var header = [UInt8](member.prefix(10))
        header[3] |= 0x04
        return Data(header + [UInt8(length & 0xFF), UInt8(length >> 8)] + [UInt8](repeating: 0x41, count: length)) + member.dropFirst(10)
    }

    /// Raw DEFLATE data of `text` in two stored blocks of 16,416 bytes, every byte
    /// of which is UTF-8 text: each block's header reads as a space or `!`, its
    /// length as ` @` and its check as the character U+07FF. `text` is split
    /// between the blocks after `split` characters, so it is whole only once
    /// inflated.
    static func storedBlocksReadingAsText(_ text: String, split: Int) -> Data {
        let length = 0x4020
        let filler = { (count: Int) in String(repeating: "padding ", count: count / 8 + 1).prefix(count) }
        let first = filler(length - split) + text.prefix(split)
        let second = text.dropFirst(split) + filler(length - (text.count - split))
        let header = { (final: Bool) -> [UInt8] in [final ? 0x21 : 0x20, 0x20, 0x40, 0xDF, 0xBF] }
        return Data(header(false) + Array(first.utf8) + header(true) + Array(second.utf8))
    }

    /// Raw DEFLATE data of `text` (at most 156 bytes), padded with spaces, whose
    /// first two bytes read as a zlib header (`78 9C`): a stored block whose header
    /// byte carries padding bits, then its length, 156.
    static func rawDeflateOpeningLikeZlib(_ text: String) -> Data {
        let content = Array((text + String(repeating: " ", count: 156 - text.utf8.count)).utf8)
        return Data([0x78, 0x9C, 0x00, 0x63, 0xFF] + content + [0x03, 0x00])
    }

    static let all: [LeakVector] = [
        ScanVectors.echoBytes("the token in raw DEFLATE data labelled as nothing") { _ in
            Data(base64Encoded: "S03OyFcoNk4uMi7RDTHITs3TNTEyMVJIzEtRSExPzMzDlAMA")!
        },
        ScanVectors.echoBytes("the token in gzip data followed by bytes that are not another member") { _ in
            gzipMember + Data("GARBAGE\n".utf8)
        },
        ScanVectors.echoBytes("the token in a second gzip member whose trailer is cut short") { _ in
            Data(base64Encoded: "H4sIAAAAAAACA0tJTc6vBAAo6kUnBQAAAB+LCAAAAAAAAgNLTc7IVyg2Ti4yLtENMchOzdM1MTIxUkjMS1FITE/MzMOUAwA=")!
        },
        ScanVectors.echoBytes("the token in zlib data made with a preset dictionary") { _ in
            Data(base64Encoded: "eLtScwfwS03OyFcoNk4uMi7RDTHITs3TNTEyMVJIzEtRSExPzMzDlAMAlioPZw==")!
        },
        ScanVectors.echoBytes("the token in gzip data whose header has an extra field of 510 bytes") { _ in
            withExtraField(gzipMember, length: 510)
        },
        ScanVectors.echoBytes("the token split across two stored DEFLATE blocks that read as text, labelled as text", headers: ["Content-Type": "text/plain"]) { token in
            storedBlocksReadingAsText("echo " + token, split: 10)
        },
        StructureVectors.answer(
            "a password in JSON compressed with gzip, labelled as nothing",
            secret: "gz-Passw0rd-77",
            ServedResponse(headers: ["Content-Type": "application/gzip"], body: Data(base64Encoded: "H4sIAAAAAAACA6tWKi1OLVKyUkrMy1PSUSpILC4uzy9KAQqkV+kGgHgGRSm65uZKtQAfRhiUKgAAAA==")!),
            writing: [RecordingMessages.compressedDataWithSecrets]
        ),
        ScanVectors.echoBytes("the token in raw DEFLATE data that opens like a zlib header") { token in
            rawDeflateOpeningLikeZlib("echo " + token)
        },
        StructureVectors.answer(
            "a password in gzip-compressed JSON cut short, labelled as nothing",
            secret: "hunter2-Secret",
            ServedResponse(headers: ["Content-Type": "application/gzip"], body: Data(base64Encoded: "H4sIAAAAAAACAw2OuxUYIQzAdrk6aVJmjUwAxsCBAYP552X3nEoVevr7sBJZpZnn9+NH7th+/fyD0LA/P55cOn4+YhoamiHR1WnIGTy0rMX4MUSLJO11w5CxGQltWiMyHJm2QHR3PFs+sUih4K9dx4OEynGX0MHUbE9EznrCaXJjXNRZbgF4eU3Qe4Uhs4SVJqlCthvW7gTcPiUGW1J7Mbd3ZZrJI1j00ysW+wb1eeoScdU+5tblzNvSh+GRtANXrIldGyXfNnUFriccL3ViY7gwB0Cz4/4+bFWuEq6mTg0D1lvJ0vGtnRqH7/ced33a17vKtJW6L79udSp3E4E=")!),
            writing: [RecordingMessages.compressedDataWithSecrets]
        ),
        LeakVector("the token split across stored DEFLATE blocks that read as text, sent labelled deflate", secret: token, requests: {
            [.to($0.url("/upload"), method: "POST", headers: ScanVectors.bearer.merging(["Content-Type": "text/plain", "Content-Encoding": "deflate"]) { $1 }, body: storedBlocksReadingAsText("echo " + token, split: 10))]
        }, .redacted([RecordingMessages.textThatInflates])),
    ]
}

@Suite("Leak corpus: secrets in compressed data, whatever its labels say", .timeLimit(.minutes(1)))
struct CompressionCorpusTests {
    @Test("each vector is redacted or refused", arguments: CompressionVectors.all)
    func vector(_ vector: LeakVector) async throws {
        try await vector.check()
    }

    @Test("the stored blocks of the text-like vectors are text, and inflate to the text whole", arguments: [7, 10, 17])
    func storedBlocksAreText(split: Int) throws {
        let data = CompressionVectors.storedBlocksReadingAsText("echo " + CompressionVectors.token, split: split)
        #expect(ContentCoding.isText(data))
        #expect(!String(decoding: data, as: UTF8.self).contains(CompressionVectors.token))
        let inflated = try #require(Inflater.inflateWhole(data))
        #expect(String(decoding: inflated, as: UTF8.self).contains("echo " + CompressionVectors.token))
    }

    @Test("text labelled deflate, as a session leaves a body it decoded, is read as text: JSON with line breaks and indents opens like a DEFLATE block that ends at once", arguments: [
        "{\n  \"id\": 1,\n  \"name\": \"Ann\"\n}",
        "[\n  {\n    \"id\": 1\n  }\n]",
        "{\"id\":1}",
        "[1,2,3]",
        "<html><body>ok</body></html>",
    ])
    func decodedTextLabelledDeflate(text: String) {
        #expect(ContentCoding.decode(Data(text.utf8), contentEncoding: "deflate") == .plain(Data(text.utf8)))
        #expect(ContentCoding.hiddenLayers(of: Data(text.utf8)).isEmpty)
    }

    @Test("the raw DEFLATE vector that opens like a zlib header inflates as raw data, and not as zlib data")
    func rawOpeningLikeZlib() throws {
        let data = CompressionVectors.rawDeflateOpeningLikeZlib("echo " + CompressionVectors.token)
        #expect((UInt16(data[0]) << 8 | UInt16(data[1])) % 31 == 0)
        #expect(Inflater.inflateRecovering(data, from: 2).isEmpty || !String(decoding: Inflater.inflateRecovering(data, from: 2), as: UTF8.self).contains(CompressionVectors.token))
        #expect(String(decoding: try #require(Inflater.inflateWhole(data)), as: UTF8.self).hasPrefix("echo " + CompressionVectors.token))
    }

    @Test("a gzip member with a 510-byte extra field inflates whole, with its header read to its end")
    func extraField() throws {
        let data = CompressionVectors.withExtraField(CompressionVectors.gzipMember, length: 510)
        #expect(try Inflater.gunzip(data) == Data(CompressionVectors.payload.utf8))
    }

    @Test("binary bodies that hold no compressed data are written as they came, not replaced by a marker", arguments: 0..<6)
    func binaryNoise(seed: Int) async throws {
        var state = UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15
        let body = Data((0..<4_096).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        })
        let written = try await LeakVector.writtenBody { ServedResponse(headers: ["Content-Type": "application/octet-stream"], body: body) }
        #expect(written == body)
    }
}
