#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// One attack on redaction: requests sent through a passthrough to a real
/// loopback server that answers them as the vector says, then recorded; and what
/// must come of it.
struct LeakVector: Sendable, CustomTestStringConvertible {
    /// What must come of recording the exchanges.
    enum Expected: Sendable {
        /// Nothing is written, and the error's leak description ends with this
        /// text (the field and where the secret came from).
        case refused(String)
        /// The cassette is written, the secret is in it in no form this test
        /// knows, and the cassette's text contains each of these.
        case redacted([String])
        /// Nothing is written, and the error's description is this one, where
        /// `{file}` stands for the cassette's path.
        case failed(String)
    }

    let name: String
    /// The secret that must not be written, in any case.
    let secret: String
    var environment: [String: String] = [:]
    var redaction: Redaction = .standard
    /// The requests to send, in order, to the server.
    let requests: @Sendable (LocalServer) -> [URLRequest]
    /// The server's answer to a request.
    let respond: @Sendable (ServedRequest) -> ServedResponse
    let expected: Expected

    var testDescription: String { name }

    init(
        _ name: String,
        secret: String,
        environment: [String: String] = [:],
        redaction: Redaction = .standard,
        requests: @escaping @Sendable (LocalServer) -> [URLRequest],
        respond: @escaping @Sendable (ServedRequest) -> ServedResponse = { _ in .text("ok") },
        _ expected: Expected
    ) {
        self.name = name
        self.secret = secret
        self.environment = environment
        self.redaction = redaction
        self.requests = requests
        self.respond = respond
        self.expected = expected
    }

    /// What recording the vector's exchanges gave: the error, or the cassette's text.
    struct Result {
        var error: CassetteError?
        var text: String?
        var exchanges: [RecordedExchange]
        var file: URL
    }

    /// Sends the requests through a passthrough to a new loopback server and
    /// records what came back with the vector's redaction and environment.
    func record() async throws -> Result {
        let server = try LocalServer(handler: respond)
        defer { server.stop() }
        var exchanges: [RecordedExchange] = []
        try await withStubScope { scope in
            await scope.passThrough(.host("127.0.0.1"))
            for request in requests(server) {
                _ = try? await URLSession.stubbed.data(for: request)
            }
            exchanges = await scope.exchanges
        }
        #expect(server.requests.count >= requests(server).count, "every request reached the server")
        let directory = try TemporaryDirectory()
        let file = directory.file("vector.har")
        let recording = CassetteRecording(file: file, mode: .record, redaction: redaction, kept: [])
        let error: CassetteError?
        do {
            error = try recording.writeChecked(exchanges, environment: environment)
        } catch let invalid {
            error = invalid
        }
        return Result(error: error, text: try? String(contentsOf: file, encoding: .utf8), exchanges: exchanges, file: file)
    }

    /// Records the vector and checks its expectation.
    func check() async throws {
        let result = try await record()
        switch expected {
        case let .refused(suffix):
            #expect(result.text == nil, "nothing is written")
            guard case let .leakedSecret(_, leak)? = result.error else {
                Issue.record("expected a refusal, got \(result.error.map(String.init(describing:)) ?? "a written cassette:\n\(result.text ?? "")")")
                return
            }
            #expect(leak.hasSuffix(suffix), "\(leak)")
            #expect(!leak.lowercased().contains(secret.lowercased()), "the message does not quote the secret")
        case let .failed(description):
            #expect(result.text == nil, "nothing is written")
            #expect(result.error?.description == description.replacingOccurrences(of: "{file}", with: result.file.path))
        case let .redacted(contents):
            #expect(result.error == nil, "\(result.error.map(String.init(describing:)) ?? "")")
            let text = try #require(result.text)
            #expect(!text.lowercased().contains(secret.lowercased()), "the secret is not written:\n\(text)")
            // Nor is it in a body the HAR file holds in base64.
            let entries = try HARFile.decode(Data(text.utf8)).cassetteEntries
            for entry in entries {
                let bodies = [entry.requestBody ?? Data()] + { if case let .response(_, _, body) = entry.answer { [body] } else { [] } }()
                for body in bodies {
                    #expect(!String(decoding: body, as: UTF8.self).lowercased().contains(secret.lowercased()))
                    // Nor in text of another encoding: Latin-1, UTF-16 either way.
                    for encoding in [String.Encoding.isoLatin1, .utf16LittleEndian, .utf16BigEndian] {
                        let text = String(data: body, encoding: encoding) ?? String(data: body.dropFirst(), encoding: encoding) ?? ""
                        #expect(!text.lowercased().contains(secret.lowercased()), "the secret is not in the body read as \(encoding)")
                    }
                    // Nor in compressed data a body holds, labelled or not.
                    for layer in ContentCoding.hiddenLayers(of: body) {
                        #expect(!String(decoding: layer, as: UTF8.self).lowercased().contains(secret.lowercased()), "the secret is not in compressed data of a body")
                    }
                }
            }
            for expected in contents {
                #expect(text.contains(expected), "the cassette contains \(expected):\n\(text)")
            }
        }
    }
}

extension LeakVector {
    /// The response body a cassette holds after a GET answered with `response`,
    /// where nothing is secret, was recorded; `nil` when no response was written.
    static func writtenBody(of response: @escaping @Sendable () -> ServedResponse) async throws -> Data? {
        let vector = LeakVector("as written", secret: "no-such-secret", requests: { [.to($0.url("/x"))] }, respond: { _ in response() }, .redacted([]))
        let text = try #require(try await vector.record().text)
        guard case let .response(_, _, written) = try HARFile.decode(Data(text.utf8)).cassetteEntries.first?.answer else { return nil }
        return written
    }
}

/// Spellings of a secret an attacker-minded server may echo.
enum Spelling {
    static func base64(_ text: String, alignment: Int = 0, url: Bool = false) -> String {
        let prefix = String("xy".prefix(alignment))
        let encoded = Data((prefix + text).utf8).base64EncodedString()
        return url ? encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "") : encoded
    }

    static func hex(_ text: String, uppercase: Bool = false) -> String {
        let digits = text.utf8.map { String(format: uppercase ? "%02X" : "%02x", $0) }.joined()
        return digits
    }

    static func percent(_ text: String, uppercase: Bool = true) -> String {
        text.utf8.map { String(format: uppercase ? "%%%02X" : "%%%02x", $0) }.joined()
    }

    static func jsonEscaped(_ text: String) -> String {
        text.utf16.map { String(format: "\\u%04x", $0) }.joined()
    }

    static func utf16(_ text: String, bigEndian: Bool) -> Data {
        Data(text.utf16.flatMap { unit -> [UInt8] in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        })
    }

    /// A gzip stream of `data` made of stored (uncompressed) blocks.
    static func gzipStored(_ data: Data) -> Data {
        var bytes: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        bytes += deflateStored(data)
        let crc = crc32(data)
        bytes += [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)]
        let size = UInt32(truncatingIfNeeded: data.count)
        bytes += [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
        return Data(bytes)
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }

    /// Raw DEFLATE of `data` in one stored block.
    static func deflateStored(_ data: Data) -> [UInt8] {
        let length = UInt16(data.count)
        return [1, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + [UInt8](data)
    }
}

extension CassetteRecording {
    /// What ``write(_:environment:)`` returns, after the check a recording scope
    /// makes before any traffic (rules that cannot be used).
    func writeChecked(_ log: [RecordedExchange], environment: [String: String]) throws(CassetteError) -> CassetteError? {
        _ = try Redactor(redaction)
        return write(log, environment: environment)
    }
}

extension URLRequest {
    /// A request for `url` with these header fields, method and body.
    static func to(_ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = body
        return request
    }
}

extension ServedResponse {
    /// A JSON response with `body`.
    static func json(_ body: String) -> ServedResponse {
        ServedResponse(headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }
}
