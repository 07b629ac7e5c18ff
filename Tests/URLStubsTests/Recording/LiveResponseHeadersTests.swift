#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

@Suite("The header fields of a recorded live response")
struct LiveResponseHeadersTests {
    @Test("the connection's and the transfer's fields are dropped, the response's kept")
    func transferFields() {
        let recorded = LiveRequest.recordedHeaders([
            "Connection": "keep-alive", "Keep-Alive": "timeout=5", "Transfer-Encoding": "chunked", "Content-Length": "12",
            "Content-Type": "application/json", "ETag": "\"v1\"",
        ])
        #expect(recorded == ["Content-Type": "application/json", "ETag": "\"v1\""])
    }

    @Test("Content-Encoding is dropped when URLSession decoded the body, and kept when it names a coding URLSession leaves encoded", arguments: [
        ("gzip", false), ("x-gzip", false), ("deflate", false), ("br", false), ("Gzip, BR", false), ("identity", false),
        ("zstd", true), ("gzip, zstd", true), ("compress", true), ("exi", true),
    ])
    func contentEncoding(value: String, isKept: Bool) {
        let recorded = LiveRequest.recordedHeaders(["Content-Encoding": value, "Content-Type": "application/octet-stream"])
        #expect(recorded["Content-Encoding"] == (isKept ? value : nil))
        #expect(recorded["Content-Type"] == "application/octet-stream")
    }

    @Test("a recorded body still in a coding URLStubs cannot undo is replaced by a marker naming the coding")
    func undecodedBodyIsMarked() throws {
        let url = URL(string: "https://api.example.com/blob")!
        let request = RecordedRequest(urlRequest: URLRequest(url: url), url: url, body: nil, sequenceNumber: 1)
        let headers = LiveRequest.recordedHeaders(["Content-Encoding": "zstd", "Content-Type": "application/json"])
        let body = Data([0x28, 0xB5, 0x2F, 0xFD, 0x04, 0x00, 0x41, 0x00])
        let exchange = RecordedExchange(request: request, outcome: .response(status: 200, headers: headers, body: body), source: .network, startedAt: .zero, endedAt: .zero)
        var redactor = try Redactor(.standard)
        let entries = redactor.redact([CassetteEntry(exchange)].compactMap { $0 })
        guard case let .response(_, _, written) = entries.first?.answer else {
            Issue.record("no response")
            return
        }
        #expect(String(decoding: written, as: UTF8.self) == RecordingMessages.unreadableBody("its Content-Encoding zstd cannot be decoded by URLStubs (only gzip and deflate can)"))
    }
}
