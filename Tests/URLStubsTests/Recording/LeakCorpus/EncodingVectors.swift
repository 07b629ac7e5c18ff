#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Secrets in text that is not UTF-8 (Latin-1, UTF-16 without its mark), in forms
/// written other than the usual way, and inside the values of query and form
/// items (JSON, URLs): what an independent review found written, each before its fix.
enum EncodingVectors {
    static let redacted = Redaction.placeholder

    /// A POST of `body` (with `contentType`, if any), whose `secret` must not be written.
    static func post(_ name: String, body: @escaping @autoclosure @Sendable () -> Data, contentType: String?, secret: String, redaction: Redaction = .standard, writing contents: [String] = []) -> LeakVector {
        LeakVector(name, secret: secret, redaction: redaction, requests: {
            [.to($0.url("/submit"), method: "POST", headers: contentType.map { ["Content-Type": $0] } ?? [:], body: body())]
        }, .redacted(contents))
    }

    /// A GET of `query` (after `?`, as written), whose `secret` must not be written.
    static func get(_ name: String, query: String, secret: String) -> LeakVector {
        LeakVector(name, secret: secret, requests: { [.to(URL(string: $0.url("/x").absoluteString + "?" + query)!)] }, .redacted([redacted]))
    }

    /// `text` in UTF-16, little-endian, without a byte-order mark.
    static func utf16LE(_ text: String) -> Data {
        Data(text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    }

    /// `text` percent-encoded as a query or form value.
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    static let all: [LeakVector] = [
        post("a Latin-1 form body, its charset declared", body: Data("password=L4t1n-Passw0rd&name=Jos".utf8) + Data([0xE9]),
             contentType: "application/x-www-form-urlencoded; charset=ISO-8859-1", secret: "L4t1n-Passw0rd"),
        post("a Latin-1 form body, no charset", body: Data("name=Jos".utf8) + Data([0xE9]) + Data("&password=L4t1n-Passw0rd2".utf8),
             contentType: "application/x-www-form-urlencoded", secret: "L4t1n-Passw0rd2"),
        post("a Latin-1 JSON body", body: Data(#"{"password":"L4t1n-Json-Pw","name":"Jos"#.utf8) + Data([0xE9]) + Data(#""}"#.utf8),
             contentType: "application/json; charset=ISO-8859-1", secret: "L4t1n-Json-Pw"),
        post("a multipart field named password whose bytes are not UTF-8", body: Data("--XyZ\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nB1nary-Passw0rd".utf8) + Data([0xFF]) + Data("\r\n--XyZ--\r\n".utf8),
             contentType: "multipart/form-data; boundary=XyZ", secret: "B1nary-Passw0rd"),
        post("a multipart field of Latin-1 text holding a form", body: Data("--XyZ\r\nContent-Disposition: form-data; name=\"login\"\r\nContent-Type: text/plain; charset=ISO-8859-1\r\n\r\nuser=Jos".utf8) + Data([0xE9]) + Data("&password=Part-L4t1n-Pw\r\n--XyZ--\r\n".utf8),
             contentType: "multipart/form-data; boundary=XyZ", secret: "Part-L4t1n-Pw"),
        post("a UTF-16 form body without a byte-order mark, its charset declared", body: utf16LE("password=U16-Passw0rd&x=1"),
             contentType: "application/x-www-form-urlencoded; charset=utf-16le", secret: "U16-Passw0rd"),
        post("a UTF-16 form body without a byte-order mark or a charset", body: utf16LE("x=1&password=U16-Passw0rd2"),
             contentType: "application/x-www-form-urlencoded", secret: "U16-Passw0rd2"),
        post("a Latin-1 text body a pattern rule reaches", body: Data("account ACCT-55120 of Jos".utf8) + Data([0xE9]),
             contentType: "text/plain; charset=ISO-8859-1", secret: "ACCT-55120", redaction: .standard.adding(.pattern("ACCT-[0-9]+"))),
        post("a form body with a space in a value, no Content-Type", body: Data("password=Sp4ce-Passw0rd&note=hello world".utf8), contentType: nil, secret: "Sp4ce-Passw0rd", writing: ["password=" + redacted + "&note=hello world"]),
        post("a form body with a space in a value, sent as text/plain", body: Data("password=Sp4ce-Passw0rd2&note=hello world".utf8), contentType: "text/plain", secret: "Sp4ce-Passw0rd2"),
        post("a form body on two lines", body: Data("user=ann\r\npassword=Tw0line-Pw".utf8), contentType: "application/x-www-form-urlencoded", secret: "Tw0line-Pw"),
        get("JSON in a query item (a GraphQL query's variables)", query: "query=login&variables=" + encoded(#"{"password":"gql-Passw0rd-1","user":"ann"}"#), secret: "gql-Passw0rd-1"),
        get("a URL in a query item, its own query holding a token", query: "redirect_uri=" + encoded("https://app.example.com/cb?access_token=nested-T0ken-9&x=1"), secret: "nested-T0ken-9"),
        // From a review of the fixes above.
        post("a form field named with brackets, no Content-Type", body: Data("user[email]=a%40b.c&user[password]=Br4cket-Secret".utf8), contentType: nil, secret: "Br4cket-Secret",
             writing: ["user[password]=" + redacted]),
        post("a UTF-16 form body without a mark, a euro sign in it", body: utf16LE("note=5€&password=U16-Euro-Secret"),
             contentType: "application/x-www-form-urlencoded", secret: "U16-Euro-Secret"),
        post("a loose form whose last value goes on over a line break", body: Data("password=ML-Secret-77&note=hello\nworld".utf8), contentType: nil, secret: "ML-Secret-77"),
        get("a path with a query in a query item (return_to)", query: "return_to=" + encoded("/account?access_token=Rel-T0ken-1&x=1"), secret: "Rel-T0ken-1"),
        get("a form in a query item (state)", query: "state=" + encoded("access_token=State-T0ken-2&x=1"), secret: "State-T0ken-2"),
        post("a URL in a form field keeps its + as written", body: Data(("redirect=" + encoded("https://a.example/cb?q=a+b&access_token=Plus-T0ken-3")).utf8),
             contentType: "application/x-www-form-urlencoded", secret: "Plus-T0ken-3", writing: ["q%3Da+b%26access_token%3D" + redacted]),
        post("JSON in a form field", body: Data(("payload=" + encoded(#"{"token":"form-json-T0ken"}"#)).utf8), contentType: "application/x-www-form-urlencoded", secret: "form-json-T0ken", writing: ["payload="]),
    ]
}

@Suite("Leak corpus: secrets in other encodings, loose forms, and nested values", .timeLimit(.minutes(1)))
struct EncodingCorpusTests {
    @Test("each vector is redacted or refused", arguments: EncodingVectors.all)
    func vector(_ vector: LeakVector) async throws {
        try await vector.check()
    }

    @Test("a redacted Latin-1 form body is written back in Latin-1: its other bytes as they came")
    func latin1WrittenBack() async throws {
        let vector = EncodingVectors.post("Latin-1", body: Data("name=Jos".utf8) + Data([0xE9]) + Data("&password=Back-L4t1n".utf8), contentType: "application/x-www-form-urlencoded; charset=ISO-8859-1", secret: "Back-L4t1n")
        let text = try #require(try await vector.record().text)
        let body = try HARFile.decode(Data(text.utf8)).cassetteEntries.first?.requestBody
        #expect(body == Data("name=Jos".utf8) + Data([0xE9]) + Data("&password=\(Redaction.placeholder)".utf8))
    }

    @Test("a multipart upload with a binary file and a JSON part (a non-Latin character in it) keeps its parts: the JSON redacted, the file's bytes as they came")
    func multipartWithABinaryFile() async throws {
        let file = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0xFF, 0xD9])
        let body = Data("--XyZ\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"password\":\"Mp-Secret-1\",\"price\":\"5 \\u20ac\"}\r\n--XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8) + file + Data("\r\n--XyZ--\r\n".utf8)
        let vector = EncodingVectors.post("multipart", body: body, contentType: "multipart/form-data; boundary=XyZ", secret: "Mp-Secret-1")
        try await vector.check()
        let text = try #require(try await vector.record().text)
        let written = try #require(try HARFile.decode(Data(text.utf8)).cassetteEntries.first?.requestBody)
        #expect(written.range(of: file) != nil)
        #expect(written.range(of: Data(#""password":"URLSTUBS-REDACTED""#.utf8)) != nil)
        #expect(written.range(of: Data("5 \u{20AC}".utf8)) != nil)
    }

    @Test("a form body whose item was redacted inside (JSON written again, a URL's query) replays against the request as the app sends it")
    func redactedFormBodiesReplay() {
        let recordedJSON = Data("payload=%7B%22name%22%3A%22ann%22%2C%22token%22%3A%22URLSTUBS-REDACTED%22%7D&x=1".utf8)
        let sent = Data(("payload=" + EncodingVectors.encoded(#"{"token": "real-T0ken", "name": "ann"}"#) + "&x=1").utf8)
        #expect(Redaction.body(sent, matches: recordedJSON))
        let otherName = Data(("payload=" + EncodingVectors.encoded(#"{"token": "real-T0ken", "name": "bob"}"#) + "&x=1").utf8)
        #expect(!Redaction.body(otherName, matches: recordedJSON))
        let recordedURL = Data("redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb%3Faccess_token%3DURLSTUBS-REDACTED".utf8)
        let sentURL = Data("redirect_uri=https://app.example.com/cb?access_token%3Dlive-T0ken".utf8)
        #expect(Redaction.body(sentURL, matches: recordedURL))
    }

    @Test("a query item's JSON, redacted, still replays: compared as JSON, whatever its key order")
    func nestedJSONReplays() throws {
        let recorded = #"{"password":"URLSTUBS-REDACTED","user":"ann"}"#
        #expect(Redaction.value(#"{"user":"ann","password":"other"}"#, matches: recorded))
        #expect(!Redaction.value(#"{"user":"bob","password":"other"}"#, matches: recorded))
    }
}
