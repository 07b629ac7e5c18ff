#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// A bearer token, a Basic password and an environment secret, echoed back by a
/// server in every spelling a reader could undo.
enum ScanVectors {
    static let token = "s3cr3t-T0ken-4242"
    static let bearer = ["Authorization": "Bearer \(token)"]
    static let piece = "part of the value removed from the request header Authorization of entry 1"

    /// A GET of `/echo` with the bearer token, answered with `body`.
    static func echo(_ name: String, body: @escaping @Sendable (String) -> String, contentType: String = "text/plain") -> LeakVector {
        LeakVector(name, secret: token, requests: { [.to($0.url("/echo"), headers: bearer)] }, respond: { _ in
            ServedResponse(headers: ["Content-Type": contentType], body: Data(body(token).utf8))
        }, .refused("response body: " + piece))
    }

    /// A GET with the bearer token answered with these bytes.
    static func echoBytes(_ name: String, headers: KeyValuePairs<String, String> = ["Content-Type": "application/octet-stream"], _ body: @escaping @Sendable (String) -> Data, expected: LeakVector.Expected = .refused("response body: " + piece)) -> LeakVector {
        LeakVector(name, secret: token, requests: { [.to($0.url("/echo"), headers: bearer)] }, respond: { _ in
            ServedResponse(headers: headers, body: body(token))
        }, expected)
    }

    /// `text` with `separator` after every `count` characters.
    static func wrapped(_ text: String, every count: Int, with separator: String) -> String {
        stride(from: 0, to: text.count, by: count).map { start in
            String(text.dropFirst(start).prefix(count))
        }.joined(separator: separator)
    }

    static let all: [LeakVector] = [
        echo("the token echoed as it is") { "you sent \($0)" },
        echo("the token echoed in upper case") { "you sent \($0.uppercased())" },
        echo("the token echoed in lower case") { "you sent \($0.lowercased())" },
        echo("the token percent-encoded, every byte, upper-case hex") { "t=\(Spelling.percent($0))" },
        echo("the token percent-encoded, every byte, lower-case hex") { "t=\(Spelling.percent($0, uppercase: false))" },
        echo("the token percent-encoded twice") { "t=\(Spelling.percent($0).replacingOccurrences(of: "%", with: "%25"))" },
        echo("the token after an invalid percent escape") { "t=%zz%4\($0)" },
        echo("the token \\u-escaped in JSON, every character", body: { #"{"echo":"\#(Spelling.jsonEscaped($0))"}"# }, contentType: "application/json"),
        echo("the token \\u-escaped in JSON with upper-case hex", body: { #"{"echo":"\#(Spelling.jsonEscaped($0).uppercased().replacingOccurrences(of: "\\U", with: "\\u"))"}"# }, contentType: "application/json"),
        echo("the token half \\u-escaped in a text body") { "echo: " + $0.prefix(5) + Spelling.jsonEscaped(String($0.dropFirst(5))) },
        echo("the token JSON-escaped inside a percent-encoded text") { "t=" + Spelling.percent(Spelling.jsonEscaped($0)) },
        echo("the token in base64") { "b=\(Spelling.base64($0))" },
        echo("the token in base64 after one byte") { "b=\(Spelling.base64($0, alignment: 1))" },
        echo("the token in base64 after two bytes") { "b=\(Spelling.base64($0, alignment: 2))" },
        echo("the token in base64 wrapped in lines of 8 (CR LF)") { Self.wrapped(Spelling.base64($0), every: 8, with: "\r\n") },
        echo("the token in MIME base64 (lines of 76) after 40 bytes", body: { Data((String(repeating: "x", count: 40) + $0).utf8).base64EncodedString(options: .lineLength76Characters) }),
        echo("the token in base64 wrapped in a JSON string with escaped line breaks", body: { #"{"b":""# + Self.wrapped(Spelling.base64($0, alignment: 1), every: 6, with: #"\r\n"#) + #""}"# }, contentType: "application/json"),
        echo("the token in base64url without padding") { "b=\(Spelling.base64("??" + $0 + ">>", url: true))" },
        echo("the token in base64 with its slashes JSON-escaped", body: { #"{"b":"\#(Spelling.base64("??>" + $0 + "??").replacingOccurrences(of: "/", with: "\\/"))"}"# }, contentType: "application/json"),
        echo("the token in lower-case hex") { "h=\(Spelling.hex($0))" },
        echo("the token in upper-case hex") { "h=\(Spelling.hex($0, uppercase: true))" },
        echoBytes("the token in UTF-16, little-endian") { Spelling.utf16("echo " + $0, bigEndian: false) },
        echoBytes("the token in UTF-16, big-endian") { Spelling.utf16("echo " + $0, bigEndian: true) },
        echoBytes("the token in UTF-16 at an odd offset") { Data([0x41]) + Spelling.utf16($0, bigEndian: false) },
        echoBytes("the token in a gzip body labelled gzip", headers: ["Content-Type": "text/plain", "Content-Encoding": "gzip"]) { Spelling.gzipStored(Data("echo \($0)".utf8)) },
        echoBytes("the token in a deflate body labelled deflate", headers: ["Content-Type": "text/plain", "Content-Encoding": "deflate"]) { Data(Spelling.deflateStored(Data("echo \($0)".utf8))) },
        echoBytes("the token in a gzip body labelled as nothing") { Spelling.gzipStored(Data("echo \($0)".utf8)) },
        LeakVector("a body in an encoding URLStubs cannot decode is replaced by a marker saying why", secret: token, requests: {
            [.to($0.url("/up"), method: "POST", headers: ["Content-Encoding": "br"], body: Data([0x1B, 0x00, 0xF8, 0x05]) + Data(token.utf8.reversed()))]
        }, .redacted(["URLSTUBS-REDACTED: URLStubs did not write this body: its Content-Encoding br cannot be decoded by URLStubs (only gzip and deflate can), so the redaction rules could not be applied to it."])),
        LeakVector("the token in a response header's name", secret: token, requests: { [.to($0.url("/echo"), headers: bearer)] }, respond: { _ in
            ServedResponse(headers: ["X-Echo-\(token)": "1"], body: Data("ok".utf8))
        }, .refused("the name of response header 2: " + piece)),
        LeakVector("the token in an unrelated response header", secret: token, requests: { [.to($0.url("/echo"), headers: bearer)] }, respond: { _ in
            ServedResponse(status: 201, headers: ["Location": "/items?owner=\(Spelling.percent(token))"], body: Data())
        }, .refused("response header Location: " + piece)),
        LeakVector("the token in the URL of the request", secret: token, requests: { [.to($0.url("/cb?state=\(Spelling.base64(token, alignment: 1))"), headers: bearer)] },
                   .refused("URL: " + piece)),
        LeakVector("the token in another request's header", secret: token, requests: { [.to($0.url("/a"), headers: bearer), .to($0.url("/b"), headers: ["X-Trace": token])] },
                   .refused("request header X-Trace: " + piece)),
        LeakVector("a Basic password echoed decoded", secret: "Hunter2-pass", requests: {
            [.to($0.url("/me"), headers: ["Authorization": "Basic " + Data("ann:Hunter2-pass".utf8).base64EncodedString()])]
        }, respond: { _ in .text("password Hunter2-pass accepted") },
                   .refused("response body: the decoded Basic credentials removed from the request header Authorization of entry 1")),
        LeakVector("a short Basic password echoed in hex", secret: "pw42", requests: {
            [.to($0.url("/me"), headers: ["Authorization": "Basic " + Data("ann:pw42".utf8).base64EncodedString()])]
        }, respond: { _ in .text(Spelling.hex("pw42")) },
                   .refused("response body: the decoded Basic credentials removed from the request header Authorization of entry 1")),
        LeakVector("the password of user:password@ in the URL, echoed from the Basic header it became", secret: "Url-Passw0rd", requests: {
            [.to(URL(string: "http://ann:Url-Passw0rd@127.0.0.1:\($0.port)/me")!)]
        }, respond: { request in .text("you are " + (request.header("Authorization") ?? "nobody") + " and your password is Url-Passw0rd") },
                   .refused("response body: the value removed from the user information of entry 1")),
        LeakVector("a 4-character API key echoed", secret: "k9Zq", requests: { [.to($0.url("/x"), headers: ["X-Api-Key": "k9Zq"])] },
                   respond: { _ in .text("your key: K9ZQ") }, .refused("response body: the value removed from the request header X-Api-Key of entry 1")),
        LeakVector("a 3-character API key is still removed where it was", secret: "k9Z", requests: { [.to($0.url("/x"), headers: ["X-Api-Key": "k9Z"])] },
                   .redacted([#""name" : "X-Api-Key","#, #""value" : "URLSTUBS-REDACTED""#])),
        LeakVector("a cookie's value echoed without its name", secret: "abcdef123456", requests: { [.to($0.url("/x"), headers: ["Cookie": "theme=dark; sid=abcdef123456"])] },
                   respond: { _ in .text("session abcdef123456") }, .refused("response body: part of the value removed from the request header Cookie of entry 1")),
        LeakVector("a cookie set in one response, echoed in a later request's body", secret: "c00kie-v4lue", requests: {
            [.to($0.url("/login")), .to($0.url("/echo"), method: "POST", body: Data("sid was c00kie-v4lue".utf8))]
        }, respond: { request in
            request.path == "/login" ? ServedResponse(headers: ["Set-Cookie": "sid=c00kie-v4lue; HttpOnly"], body: Data()) : .text("ok")
        }, .refused("request body: part of the value removed from the response header Set-Cookie of entry 1")),
        LeakVector("a query token echoed percent-encoded", secret: "q-T0k/en+99", requests: { [.to($0.url("/x?access_token=q-T0k%2Fen%2B99"))] },
                   respond: { _ in .text("you sent q-T0k%2fen%2b99") }, .refused("response body: the value removed from the item access_token of entry 1")),
        LeakVector("a JSON password echoed in base64", secret: "hunter2-PW-99", requests: {
            [.to($0.url("/login"), method: "POST", headers: ["Content-Type": "application/json"], body: Data(#"{"password":"hunter2-PW-99"}"#.utf8))]
        }, respond: { _ in .text(Spelling.base64("hunter2-PW-99", alignment: 2)) },
                   .refused("response body: the value removed from the JSON field password in the request body of entry 1")),
        LeakVector("a secret environment variable DB_PASS echoed", secret: "db-pa55word", environment: ["DB_PASS": "db-pa55word"], requests: { [.to($0.url("/x"))] },
                   respond: { _ in .text("connected with db-pa55word") }, .refused("response body: the value of the environment variable DB_PASS")),
        LeakVector("a secret environment variable echoed in base64", secret: "ghp_0123456789", environment: ["API_TOKEN": "ghp_0123456789"], requests: { [.to($0.url("/x"))] },
                   respond: { _ in .text(Spelling.base64("ghp_0123456789", alignment: 1)) }, .refused("response body: the value of the environment variable API_TOKEN")),
        LeakVector("a secret environment variable echoed in UTF-16", secret: "env-s3cret", environment: ["SERVICE_SECRET": "env-s3cret"], requests: { [.to($0.url("/x"))] },
                   respond: { _ in ServedResponse(body: Spelling.utf16("env-s3cret", bigEndian: true)) }, .refused("response body: the value of the environment variable SERVICE_SECRET")),
        LeakVector("a 6-character secret environment variable echoed", secret: "Zq81xy", environment: ["AUTH": "Zq81xy"], requests: { [.to($0.url("/x"))] },
                   respond: { _ in .text("auth zq81xy") }, .refused("response body: the value of the environment variable AUTH")),
        LeakVector("a gzip request body is redacted decoded and written without its Content-Encoding", secret: "hunter2-PW-99", requests: {
            [.to($0.url("/login"), method: "POST", headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                 body: Data(base64Encoded: "H4sIAAAAAAACA6tWKkgsLi7PL0pRslLKKM0rSS0y0g0I17W0VNJRKi1OLQIKJ+blKdUCAM/6dlkpAAAA")!)]
        }, .redacted([#"{\"password\":\"URLSTUBS-REDACTED\",\"user\":\"ann\"}"#])),
        LeakVector("a gzip request body that cannot be inflated is replaced by a marker", secret: "hunter2-PW-99", requests: {
            [.to($0.url("/login"), method: "POST", headers: ["Content-Encoding": "gzip"], body: Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) + Data("hunter2-PW-99".utf8))]
        }, .redacted(["URLSTUBS-REDACTED: URLStubs did not write this body: its gzip data cannot be inflated"])),
        LeakVector("JSON with a number Foundation rejects (1e400) is replaced by a marker", secret: "json-t0ken-1", requests: { [.to($0.url("/x"))] },
                   respond: { _ in .json(#"{"token":"json-t0ken-1","big":1e400}"#) }, .redacted(["URLSTUBS-REDACTED: URLStubs did not write this body: it looks like JSON but cannot be parsed"])),
        LeakVector("JSON with a lone surrogate is replaced by a marker", secret: "json-t0ken-2", requests: { [.to($0.url("/x"))] },
                   respond: { _ in .json(#"{"token":"json-t0ken-2","bad":"\ud800"}"#) }, .redacted(["URLSTUBS-REDACTED: URLStubs did not write this body: it looks like JSON but cannot be parsed"])),
        LeakVector("JSON nested deeper than 512 levels is replaced by a marker", secret: "json-t0ken-3", requests: { [.to($0.url("/x"))] },
                   respond: { _ in .json(#"{"token":"json-t0ken-3","deep":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}") },
                   .redacted(["URLSTUBS-REDACTED: URLStubs did not write this body: it looks like JSON but cannot be parsed"])),
        LeakVector("JSON with a trailing NUL is replaced by a marker", secret: "json-t0ken-4", requests: { [.to($0.url("/x"))] },
                   respond: { _ in ServedResponse(headers: ["Content-Type": "application/json"], body: Data(#"{"token":"json-t0ken-4"}"#.utf8) + Data([0])) },
                   .redacted(["URLSTUBS-REDACTED: URLStubs did not write this body: it looks like JSON but cannot be parsed"])),
        LeakVector("JSON whose key is \\u-escaped is redacted by the key it spells", secret: "json-t0ken-5", requests: { [.to($0.url("/x"))] },
                   respond: { _ in .json(#"{"tok\u0065n":"json-t0ken-5"}"#) }, .redacted([#"{\"token\":\"URLSTUBS-REDACTED\"}"#])),
        LeakVector("JSON served as text/plain is redacted as JSON", secret: "json-t0ken-6", requests: { [.to($0.url("/x"))] },
                   respond: { _ in .text(#"  {"session":"json-t0ken-6"}"#) }, .redacted([#"{\"session\":\"URLSTUBS-REDACTED\"}"#])),
        LeakVector("a value with spaces echoed with + for each space", secret: "open sesame 42", requests: { [.to($0.url("/x"), headers: ["X-Api-Key": "open sesame 42"])] },
                   respond: { _ in .text("echo open+sesame+42") }, .refused("response body: the value removed from the request header X-Api-Key of entry 1")),
        LeakVector("a non-ASCII password echoed \\u-escaped with a surrogate pair", secret: "pässwörd-🔑", requests: {
            [.to($0.url("/login"), method: "POST", headers: ["Content-Type": "application/json"], body: Data(#"{"password":"pässwörd-🔑"}"#.utf8))]
        }, respond: { _ in .json(#"{"echo":"p\u00e4ssw\u00f6rd-\ud83d\udd11"}"#) }, .refused("response body: the value removed from the JSON field password in the request body of entry 1")),
        LeakVector("protocol words inside a removed cookie are not secrets: a body that says HttpOnly is written", secret: "abcdef1234", requests: { [.to($0.url("/x"))] },
                   respond: { _ in ServedResponse(headers: ["Set-Cookie": "sid=abcdef1234; HttpOnly; Secure; SameSite=Strict"], body: Data("cookies here are HttpOnly and Secure".utf8)) },
                   .redacted(["cookies here are HttpOnly and Secure"])),
        LeakVector("a removed 4-digit number is not looked for elsewhere (digits turn up by chance), but is removed where it was", secret: "\"pin\":4821", requests: { [.to($0.url("/x"))] },
                   respond: { _ in .json(#"{"pin":4821,"note":"room 4821"}"#) }, .redacted([#"{\"note\":\"room 4821\",\"pin\":\"URLSTUBS-REDACTED\"}"#])),
        LeakVector("a removed 6-digit number is looked for elsewhere", secret: "482193", requests: { [.to($0.url("/x"))] },
                   respond: { _ in .json(#"{"pin":482193,"note":"pin is 482193"}"#) }, .refused("response body: the value removed from the JSON field pin in the response body of entry 1")),
        LeakVector("a token the JSON rules removed, echoed Go-style \\u003c-escaped elsewhere", secret: "<tok>&json-7", requests: { [.to($0.url("/x"))] },
                   respond: { _ in .json(#"{"token":"<tok>&json-7","echo":"\u003ctok\u003e\u0026json-7"}"#) }, .refused("response body: the value removed from the JSON field token in the response body of entry 1")),
    ]
}

@Suite("Leak corpus: the scan", .timeLimit(.minutes(1)))
struct ScanCorpusTests {
    @Test("each vector is redacted or refused", arguments: ScanVectors.all)
    func vector(_ vector: LeakVector) async throws {
        try await vector.check()
    }

    @Test("a refusal's message withholds a URL that holds a secret in a spelling that cannot be masked")
    func withheldURL() throws {
        let token = ScanVectors.token
        let entries = [CassetteEntry(method: "GET", url: "https://api.example.com/cb?state=\(Spelling.base64(token, alignment: 1))",
                                     requestHeaders: [.init(name: "Authorization", value: "Bearer \(token)")], requestBody: nil,
                                     answer: .response(status: 200, headers: [], body: Data()))]
        var redactor = try Redactor(.standard)
        let redacted = redactor.redact(entries)
        let leak = LeakScan.firstLeak(in: redacted, of: LeakScan.secrets(removed: redactor.removals, environment: [:]))
        #expect(leak == "entry 1 (GET (its URL is withheld: it holds a secret)), URL: part of the value removed from the request header Authorization of entry 1")
    }

    @Test("the inflater decodes gzip (fixed and dynamic Huffman), zlib and raw deflate as zlib makes them")
    func inflater() throws {
        let expected = #"{"echo":"s3cr3t-T0ken-4242","pad":""# + String(repeating: "abcabcabc", count: 40) + #""}"#
        let gzip = try #require(Data(base64Encoded: "H4sIAAAAAAACA6tWSk3OyFeyUio2Ti4yLtENMchOzdM1MTIxUtJRKkhMAcokJiWPIjogpVoAvTNk340BAAA="))
        let zlib = try #require(Data(base64Encoded: "eJyrVkpNzshXslIqNk4uMi7RDTHITs3TNTEyMVLSUSpITAHKJCYljyI6IKVaAAbMlFc="))
        let raw = try #require(Data(base64Encoded: "q1ZKTc7IV7JSKjZOLjIu0Q0xyE7N0zUxMjFS0lEqSEwByiQmJY8iOiClWgA="))
        #expect(String(decoding: try Inflater.gunzip(gzip), as: UTF8.self) == expected)
        #expect(String(decoding: try Inflater.inflateZlibOrRaw(zlib), as: UTF8.self) == expected)
        #expect(String(decoding: try Inflater.inflateZlibOrRaw(raw), as: UTF8.self) == expected)
        let lines = (0..<300).map { "line \($0): the quick brown fox \($0 * 7 % 13)\n" }.joined()
        let dynamic = try #require(Data(base64Encoded: Self.dynamicHuffmanGzip))
        #expect(String(decoding: try Inflater.gunzip(dynamic), as: UTF8.self) == lines)
        #expect(throws: Inflater.Failure(reason: "its compressed data is cut short")) { try Inflater.gunzip(gzip.prefix(30)) }
    }

    static let dynamicHuffmanGzip = "H4sIAAAAAAACA4XaQY5kNRBF0TmrqCX4vbDDDpYDakSLViMQCJaPUFbmKH1jHCqpfl5VpeN8f/v6/cvH+PHjr1+/fPzx99eff/v46c/f//n+8cvv/36MH779P9X76X5M/X6qxzTeT89jOt9P/Ziu99N6TPP9NB7TffmtPh/pvB/Px7QuP/z5TLp8XOtzfPm89PlYunxi+TkOjjGxhhbmUGIPbQyig0VUmMSDm1gYxeYqDqziyVW8sIoTq3jz38jBKi6sEgOrhLBKGKtEcJWYWCUWV4nEKrG5ShysEoVV5sAqU1hlmv93BVaZE6vMhVVmcpW5sco8XGUWVlmDqyxhlWWssgKrrIlV1sIqK/krZWOVdbDKKq6SA6ukuEoaq2RwlZxYJRdWycQqubFKHqyShVX2wCpb/FVvrrIDq+zJVfbCKju5yt5YZR+ssgurnIFVjrDKMVY5gVXOxCpnNSewxCpnc5VzsMoprlIDq5SwShmrVGCVmlilFlapxCq1sUodrlKFVTRGdzQWn42Hm8PxCD4dj8nH47H4fDySD8hj8wl5HD4ij+Iz8m15iOdcXEi39eGZ6LY/vBLdNojX+rKaRLcl4pnotkW8nuBwotse8XyA2yLxTHRbJF77lznRbZN4JrquEs8HvO0Sz0S3ZeKV6LZOPBNd94nXI1azYzYbf/DOr+CtX8F7v4I3fwXv/gre/hXN/q9gAVB0BjAbBJidAsyGAWbnAA0EzEYCZkMBs7GA2WDAZA3QajhAiz1AqwEBLRYBrYYEtNgEtBgFtHZjNcwCWuwCSoYBJcuAkmlA2diAknFA2eiAknlA2fiAkoFAyUKgzUSgzUag7QbUWAm0mQm02Qm0GyjQZinQbqhAm61Ap8ECHdYCHeYCHfYCHQYDHRYDnWzQk81Ah9FAp1EDFbOBqnEDFcOBqpEDFdOBiu1AxXigYj1QMR+o2A88GBA81Mh0QwgebAgeDSJ4sCJ4NIzgwY7gwZDgwZJgMSVYbAkWY4LFmmAxJ1ire3vAoGA1omAxKViNKdiMCjargs2sYLMr2AwLNsuCzbRgsy3YDS7YrAuO0b3iYV1wNLrgYF1wsC44WBccrAsO1gUH64KDdcGTdcGz0QVP1gXPRhc8Z/MartEFT9YFT9YFT9YFT9YFL9YFL9YFL9YFL9YFr0YXvFgXvBpd8GJd8Drdq9Jq3pWyLjibGwXJuuBkXXCyLjhZF5ysC85GF5ysC85GF7xZF7wbXfBmXfCO5n0264I364I364I364I364J3c9fgdJcNTnPb4HTXDU5z3+B0Fw5Oc+PgNFcOTnfnoLl0cFgXXKwLLtYFF+uCq9EFF+uCq9EFF+uCq9EFF+uC66oL/wFHCsUpVyUAAA=="
}
