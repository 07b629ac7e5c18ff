#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Secrets hidden in the structure of a body or a header, where a reader of the
/// cassette finds them but a rule reading the usual structure would not: what an
/// independent review found redaction let through, each written before its fix.
enum StructureVectors {
    static let redacted = Redaction.placeholder

    /// A multipart body with these lines, joined by CR LF.
    static func multipart(_ lines: [String]) -> Data {
        Data(lines.joined(separator: "\r\n").utf8)
    }

    /// A POST of `body` as `contentType`, whose `secret` must not be written.
    ///
    /// Bodies and responses are made when a vector runs, not kept in `all`: a
    /// `Data` held in a global array is reported as leaked by the address
    /// sanitizer's leak checker (it does not see through the enum that holds it).
    static func post(_ name: String, body: @escaping @autoclosure @Sendable () -> Data, contentType: String, secret: String) -> LeakVector {
        LeakVector(name, secret: secret, requests: {
            [.to($0.url("/submit"), method: "POST", headers: ["Content-Type": contentType], body: body())]
        }, .redacted([redacted]))
    }

    /// A GET answered with `response`, whose `secret` must not be written.
    static func answer(_ name: String, secret: String, _ response: @escaping @autoclosure @Sendable () -> ServedResponse, writing contents: [String] = [redacted]) -> LeakVector {
        LeakVector(name, secret: secret, requests: { [.to($0.url("/x"))] }, respond: { _ in response() }, .redacted(contents))
    }

    static let all: [LeakVector] = [
        post("a multipart body that ends without its close delimiter: its last field", body: multipart([
            "--XyZ", #"Content-Disposition: form-data; name="user""#, "", "ann",
            "--XyZ", #"Content-Disposition: form-data; name="password""#, "", "mult1part-Pw-77", "",
        ]), contentType: "multipart/form-data; boundary=XyZ", secret: "mult1part-Pw-77"),
        post("a multipart field after the close delimiter", body: multipart([
            "--XyZ", #"Content-Disposition: form-data; name="user""#, "", "ann",
            "--XyZ--", "--XyZ", #"Content-Disposition: form-data; name="password""#, "", "ep1logue-Pw-77",
            "--XyZ--", "",
        ]), contentType: "multipart/form-data; boundary=XyZ", secret: "ep1logue-Pw-77"),
        post("a multipart field named in RFC 8187's form, name*=utf-8''password", body: multipart([
            "--XyZ", "Content-Disposition: form-data; name*=utf-8''password", "", "star-Passw0rd",
            "--XyZ--", "",
        ]), contentType: "multipart/form-data; boundary=XyZ", secret: "star-Passw0rd"),
        answer("server-sent events whose lines end in CR alone", secret: "sse-cr-T0ken",
               ServedResponse(headers: ["Content-Type": "text/event-stream"], body: Data("event: auth\rdata: {\"token\":\"sse-cr-T0ken\"}\r\r".utf8))),
        // Written as read: the parser keeps one value of a repeated key.
        answer("a JSON object naming the secret-looking key twice, the secret first", secret: "dup-T0ken-1", .json(#"{"token":"dup-T0ken-1","token":null}"#), writing: [#"{\"token\":null}"#]),
        answer("a JSON object naming the secret-looking key twice, the secret last", secret: "dup-T0ken-2", .json(#"{"token":null,"token":"dup-T0ken-2"}"#)),
        answer("a JSON object naming a key twice, once spelled with an escape", secret: "dup-T0ken-3", .json(#"{"token":"dup-T0ken-3","tok\u0065n":null}"#), writing: [#"{\"token\":null}"#]),
        answer("a JSON array of strings under a secret-looking name", secret: "arr-T0ken-1", .json(#"{"tokens":["arr-T0ken-1"]}"#)),
        answer("JSON sent as a JSON string, holding a password", secret: "str-Passw0rd", .json(#"{"payload":"{\"password\":\"str-Passw0rd\"}"}"#)),
        answer("a JSON pin above the largest 64-bit integer", secret: "10000000000000000000001", .json(#"{"pin":10000000000000000000001}"#)),
        answer("the Location of a 201 with an access_token query item", secret: "loc-T0ken-1",
               ServedResponse(status: 201, headers: ["Location": "/items/1?access_token=loc-T0ken-1"], body: Data())),
        answer("a Content-Location with the token in its fragment", secret: "frag-T0ken-1",
               ServedResponse(headers: ["Content-Location": "https://api.example.com/items/1#access_token=frag-T0ken-1"], body: Data("ok".utf8))),
        answer("a Link header whose next page carries a token", secret: "link-T0ken-1",
               ServedResponse(headers: ["Link": #"<https://api.example.com/items?page=2&token=link-T0ken-1>; rel="next""#], body: Data("ok".utf8))),
        LeakVector("a Referer request header with an access_token query item", secret: "ref-T0ken-1", requests: {
            [.to($0.url("/x"), headers: ["Referer": "https://app.example.com/cb?access_token=ref-T0ken-1"])]
        }, .redacted([redacted])),
        LeakVector("query items separated by ;", secret: "semi-T0ken-1", requests: {
            [.to($0.url("/x?a=1;access_token=semi-T0ken-1"))]
        }, .redacted(["a=1;access_token=" + redacted])),
        // The token of the request's Authorization header, echoed in compressed
        // data that no Content-Encoding names: a reader inflates it.
        ScanVectors.echoBytes("the token in a real (compressed) gzip body labelled as nothing", headers: ["Content-Type": "application/gzip"]) { _ in
            Data(base64Encoded: "H4sIAAAAAAACA0tNzshXKDZOLjIu0Q0xyE7N0zUxMjFSSMxLUUhMT8zMw5QDAMlEZeMyAAAA")!
        },
        ScanVectors.echoBytes("the token in gzip inside gzip, labelled as nothing") { _ in
            Data(base64Encoded: "H4sIAAAAAAACA5Pv5mAAASZmb99zJ8I1zPz0jPQu8hqe8Dt72dTQyDDI44x3oIeP/5kzh6cwM5x0SX1sBFQNAKBQlco2AAAA")!
        },
        ScanVectors.echoBytes("the token in a zlib stream labelled as nothing") { _ in
            Data(base64Encoded: "eJxLTc7IVyg2Ti4yLtENMchOzdM1MTIxUkjMS1FITE/MzMOUAwCWKg9n")!
        },
    ]
}

@Suite("Leak corpus: secrets in a body's or header's structure", .timeLimit(.minutes(1)))
struct StructureCorpusTests {
    @Test("each vector is redacted or refused", arguments: StructureVectors.all)
    func vector(_ vector: LeakVector) async throws {
        try await vector.check()
    }

    @Test("JSON in UTF-16 after a byte-order mark is redacted, and written back in UTF-16 with its mark", arguments: [false, true])
    func utf16JSON(bigEndian: Bool) async throws {
        let body = Data(bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + Spelling.utf16(#"{"id":7,"token":"u16-T0ken-1"}"#, bigEndian: bigEndian)
        // Written in base64 (UTF-16 is not UTF-8 text): read back below.
        let vector = StructureVectors.answer("UTF-16 JSON", secret: "u16-T0ken-1", ServedResponse(headers: ["Content-Type": "text/plain"], body: body), writing: [])
        try await vector.check()
        let text = try #require(try await vector.record().text)
        let entries = try HARFile.decode(Data(text.utf8)).cassetteEntries
        guard case let .response(_, _, written) = entries.first?.answer else {
            Issue.record("no response was written")
            return
        }
        #expect(written.prefix(2) == body.prefix(2))
        #expect(String(data: written.dropFirst(2), encoding: bigEndian ? .utf16BigEndian : .utf16LittleEndian) == #"{"id":7,"token":"URLSTUBS-REDACTED"}"#)
    }

    @Test("bytes of a binary type that open like a UTF-16 byte-order mark are written as they came, not read as text")
    func binaryOpeningLikeABOM() async throws {
        // A lone surrogate after the mark: not UTF-16 text, which would have made it a marker.
        let body = Data([0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00])
        let written = try await LeakVector.writtenBody { ServedResponse(headers: ["Content-Type": "application/octet-stream"], body: body) }
        #expect(written == body)
    }

    @Test("a cassette whose redaction cut into a value replays for any value there: a query item after ;, a Referer's query, a password in JSON inside a JSON string")
    func partlyRedactedValuesReplay() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("partly.har")
        let server = try LocalServer { _ in .text("recorded") }
        @Sendable func request(_ token: String) -> URLRequest {
            URLRequest.to(server.url("/x?a=1;access_token=\(token)"), method: "POST", headers: [
                "Referer": "https://app.example.com/cb?access_token=\(token)",
                "Content-Type": "application/json",
            ], body: Data(#"{"payload":"{\"password\":\"\#(token)\",\"n\":1}"}"#.utf8))
        }
        try await withStubScope(cassette: file, mode: .record, matching: .standard.comparingHeaders()) { _ in
            _ = try await URLSession.stubbed.data(for: request("first-T0ken"))
        }
        server.stop()
        #expect(!(try String(contentsOf: file, encoding: .utf8)).contains("first-T0ken"))
        try await withStubScope(cassette: file, mode: .replay, matching: .standard.comparingHeaders()) { _ in
            let (data, _) = try await URLSession.stubbed.data(for: request("second-T0ken"))
            #expect(String(decoding: data, as: UTF8.self) == "recorded")
        }
    }

    @Test("a JSON document that names no key twice and has nothing to redact is written byte for byte as it came")
    func untouchedJSON() async throws {
        let json = #"{ "b": 1,  "a": [ {"x": "y"} ], "note": "a \"quoted\" colon: here" }"#
        let written = try await LeakVector.writtenBody { .json(json) }
        #expect(written == Data(json.utf8))
    }
}
