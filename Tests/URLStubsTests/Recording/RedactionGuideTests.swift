#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// What Documentation/Redaction.md says is removed, read and scanned, each claim
/// held by a test of its own.
@Suite("Redaction: what the guide says", .timeLimit(.minutes(1)))
struct RedactionGuideTests {
    static func entry(_ text: String?) throws -> CassetteEntry {
        let file = try #require(text)
        return try #require(try HARFile.decode(Data(file.utf8)).cassetteEntries.first)
    }

    // A: the five environment names "match"
    @Test("Proxy-Authorization's value is removed")
    func proxyAuthorization() throws {
        let (error, text) = try RedactionTests.record([RedactionTests.exchange(url: URL(string: "https://api.example.com/x")!, headers: ["Proxy-Authorization": "Basic cHJveHk6UHIweHktUGFzcw=="])])
        #expect(error == nil)
        #expect(try Self.entry(text).requestHeaders == [.init(name: "Proxy-Authorization", value: Redaction.placeholder)])
    }

    @Test("a Refresh header's URL loses its secret-looking query items")
    func refreshHeader() throws {
        let (error, text) = try RedactionTests.record([RedactionTests.exchange(url: URL(string: "https://api.example.com/x")!, responseHeaders: ["Refresh": "5; url=https://app.example.com/cb?access_token=Refr3sh-T0ken-1&x=1"])])
        #expect(error == nil)
        let file = try #require(text)
        #expect(!file.contains("Refr3sh-T0ken-1"), "\(file)")
        #expect(file.contains("access_token=\(Redaction.placeholder)&x=1"))
    }

    @Test("the documented names and words not yet pinned look secret: passphrase, accesskey, privatekey, sid, otp, xsrf, cookie, api_key")
    func remainingSecretNames() {
        for name in ["passphrase", "accesskeyid", "privatekeyfile", "X-SID", "user_otp", "X-XSRF", "my_cookie", "api_key"] {
            #expect(Redaction.looksSecret(name), "\(name)")
        }
    }

    @Test("a windows-1252 body is read in its charset: a pattern rule reaches a euro sign, and the body is written back in windows-1252")
    func windows1252() throws {
        var request = URLRequest(url: URL(string: "https://api.example.com/pay")!)
        request.httpMethod = "POST"
        request.setValue("text/plain; charset=windows-1252", forHTTPHeaderField: "Content-Type")
        let body = Data("price ".utf8) + Data([0x80]) + Data("1234 for Jos".utf8) + Data([0xE9])
        let recorded = RecordedRequest(urlRequest: request, body: body, sequenceNumber: 1)
        let exchange = RecordedExchange(request: recorded, outcome: .response(status: 200, headers: [:], body: Data()), source: .network, startedAt: .zero, endedAt: .zero)
        let (error, text) = try RedactionTests.record([exchange], redaction: .standard.adding(.pattern("€[0-9]+")))
        #expect(error == nil, "\(String(describing: error))")
        #expect(try Self.entry(text).requestBody == Data("price \(Redaction.placeholder) for Jos".utf8) + Data([0xE9]))
    }

    @Test("a text body with a UTF-16 byte-order mark that is not UTF-16 is replaced by a marker")
    func badUTF16Marker() throws {
        let (error, text) = try RedactionTests.record([RedactionTests.exchange(url: URL(string: "https://api.example.com/x")!, responseHeaders: ["Content-Type": "text/plain"], responseBody: "")].map { exchange in
            RecordedExchange(request: exchange.request, outcome: .response(status: 200, headers: ["Content-Type": "text/plain"], body: Data([0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00])), source: .network, startedAt: .zero, endedAt: .zero)
        })
        #expect(error == nil)
        guard case let .response(_, _, body) = try Self.entry(text).answer else { Issue.record("no response"); return }
        #expect(String(decoding: body, as: UTF8.self).hasPrefix("\(Redaction.placeholder): URLStubs did not write this body: it opens with a UTF-16 byte-order mark but is not UTF-16 text"))
    }

    @Test("a multipart body with a part that has no blank line after its headers is replaced by a marker")
    func multipartWithoutBlankLine() throws {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"password\"\r\nN0-Blank-Passw0rd\r\n--XyZ--\r\n"
        let (error, text) = try RedactionTests.record([RedactionTests.exchange(url: URL(string: "https://api.example.com/x")!, headers: ["Content-Type": "multipart/form-data; boundary=XyZ"], body: body)])
        #expect(error == nil)
        let written = String(decoding: try #require(try Self.entry(text).requestBody), as: UTF8.self)
        #expect(written.hasPrefix("\(Redaction.placeholder): URLStubs did not write this body: its multipart part 1 has no blank line after its headers"), "\(written)")
    }

    @Test("the error text of a failed request is scanned")
    func failedRequestErrorText() throws {
        let token = "s3cr3t-T0ken-4242"
        let entries = [CassetteEntry(method: "GET", url: "https://api.example.com/x", requestHeaders: [.init(name: "Authorization", value: "Bearer \(token)")], requestBody: nil,
                                     answer: .failure(code: -1004, message: "could not connect with \(token)"))]
        var redactor = try Redactor(.standard)
        let redacted = redactor.redact(entries)
        let leak = LeakScan.firstLeak(in: redacted, of: LeakScan.secrets(removed: redactor.removals, environment: [:]))
        #expect(leak == "entry 1 (GET https://api.example.com/x), error: part of the value removed from the request header Authorization of entry 1")
    }

    @Test("JSON numbers under a secret-looking name are removed from four digits: a three-digit one is kept; a value whose own name is not secret is kept inside a secret-named object, and .jsonField(\"$.token.*\") removes it")
    func jsonNumbersAndNestedValues() throws {
        let (error, text) = try RedactionTests.record([RedactionTests.exchange(url: URL(string: "https://api.example.com/x")!, responseBody: #"{"pin":123,"token":{"value":"nested-T0ken-1"}}"#)])
        #expect(error == nil)
        guard case let .response(_, _, body) = try Self.entry(text).answer else { Issue.record("no response"); return }
        #expect(String(decoding: body, as: UTF8.self) == #"{"pin":123,"token":{"value":"nested-T0ken-1"}}"#)
        let (error2, text2) = try RedactionTests.record([RedactionTests.exchange(url: URL(string: "https://api.example.com/x")!, responseBody: #"{"token":{"value":"nested-T0ken-1"}}"#)], redaction: .standard.adding(.jsonField("$.token.*")))
        #expect(error2 == nil)
        guard case let .response(_, _, body2) = try Self.entry(text2).answer else { Issue.record("no response"); return }
        #expect(String(decoding: body2, as: UTF8.self) == #"{"token":{"value":"URLSTUBS-REDACTED"}}"#)
    }

    @Test("a URL's query and fragment start at the byte of their `?` and `#`, as a server reads them, even when a combining mark follows: their tokens are removed")
    func delimitersBeforeCombiningMarks() throws {
        let query = "cm-Qu3ry-T0ken-51", fragment = "cm-Fr4g-T0ken-52"
        let location = "https://api.example.com/cb?\u{301}=1&access_token=\(query)#\u{301}=1&access_token=\(fragment)"
        let entries = [CassetteEntry(method: "GET", url: "https://api.example.com/x", requestHeaders: [], requestBody: nil,
                                     answer: .response(status: 302, headers: [.init(name: "Location", value: location)], body: Data()))]
        var redactor = try Redactor(.standard)
        let redacted = redactor.redact(entries)
        guard case let .response(_, headers, _) = redacted[0].answer else { Issue.record("no response"); return }
        let placeholder = Redaction.placeholder
        #expect(headers.map(\.value) == ["https://api.example.com/cb?\u{301}=1&access_token=\(placeholder)#\u{301}=1&access_token=\(placeholder)"])
    }

    @Test("a query item's `=` and a Link header's `<` and `>` are found by their bytes, as a client reads them, even when a combining mark follows: the tokens behind them are removed")
    func itemAndLinkDelimitersBeforeCombiningMarks() throws {
        let item = "cm-It3m-T0ken-53", link = "cm-L1nk-T0ken-54"
        let links = "<\u{301}https://api.example.com/items?page=2&token=\(link)>\u{301}; rel=\"next\""
        let entries = [CassetteEntry(method: "GET", url: "https://api.example.com/x?access_token=\u{301}\(item)", requestHeaders: [], requestBody: nil,
                                     answer: .response(status: 200, headers: [.init(name: "Link", value: links)], body: Data()))]
        var redactor = try Redactor(.standard)
        let redacted = redactor.redact(entries)
        let placeholder = Redaction.placeholder
        #expect(redacted[0].url == "https://api.example.com/x?access_token=\(placeholder)")
        guard case let .response(_, headers, _) = redacted[0].answer else { Issue.record("no response"); return }
        #expect(headers.map(\.value) == ["<\u{301}https://api.example.com/items?page=2&token=\(placeholder)>\u{301}; rel=\"next\""])
    }

    @Test("a form body's `=` followed by a combining mark still ends the item's name, whether the body is labelled a form or only reads as one: the token after it is removed")
    func formDelimitersBeforeCombiningMarks() throws {
        for contentType in ["application/x-www-form-urlencoded", "text/plain"] {
            let token = "cm-B0dy-T0ken-55"
            let form = "access_token=\u{301}\(token)&page=2"
            let entries = [CassetteEntry(method: "POST", url: "https://api.example.com/x", requestHeaders: [.init(name: "Content-Type", value: contentType)],
                                         requestBody: Data(form.utf8), answer: .failure(code: -1, message: "x"))]
            var redactor = try Redactor(.standard)
            let redacted = redactor.redact(entries)
            let written = String(decoding: redacted[0].requestBody ?? Data(), as: UTF8.self)
            #expect(written == "access_token=\(Redaction.placeholder)&page=2", "\(contentType)")
        }
    }

    @Test("fragment items split at ; are redacted")
    func fragmentItemsSplitAtSemicolon() throws {
        let (error, text) = try RedactionTests.record([RedactionTests.exchange(url: URL(string: "https://app.example.com/cb#state=x;access_token=Fr4g-Semi-T0ken")!)])
        #expect(error == nil)
        #expect(try Self.entry(text).url == "https://app.example.com/cb#state=x;access_token=\(Redaction.placeholder)")
    }

    @Test(".queryItem(name) also removes a fragment item and a form field of that name")
    func queryItemRuleReachesFragmentsAndForms() throws {
        let (error, text) = try RedactionTests.record([RedactionTests.exchange(
            url: URL(string: "https://api.example.com/x#tenant=blue-42&y=1")!,
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "tenant=green-43&z=2"
        )], redaction: .standard.adding(.queryItem("tenant")))
        #expect(error == nil)
        let entry = try Self.entry(text)
        #expect(entry.url == "https://api.example.com/x#tenant=\(Redaction.placeholder)&y=1")
        #expect(entry.requestBody == Data("tenant=\(Redaction.placeholder)&z=2".utf8))
    }

    @Test(".pattern removes matches in header values; .jsonField reads ['a key'] and removes whole arrays")
    func patternInHeadersAndJSONPaths() throws {
        let (error, text) = try RedactionTests.record([RedactionTests.exchange(
            url: URL(string: "https://api.example.com/x")!,
            headers: ["X-Account": "acct ACCT-99123 main"],
            responseBody: #"{"a key":"spaced-1","list":[1,2,3]}"#
        )], redaction: .standard.adding(.pattern("ACCT-[0-9]+"), .jsonField("$['a key']"), .jsonField("list")))
        #expect(error == nil, "\(String(describing: error))")
        let entry = try Self.entry(text)
        #expect(entry.requestHeaders == [.init(name: "X-Account", value: "acct \(Redaction.placeholder) main")])
        guard case let .response(_, _, body) = entry.answer else { Issue.record("no response"); return }
        #expect(String(decoding: body, as: UTF8.self) == #"{"a key":"URLSTUBS-REDACTED","list":"URLSTUBS-REDACTED"}"#)
    }

    @Test(".custom sees path segments and fragments")
    func customSeesSegmentsAndFragments() throws {
        let rule = Redaction.Rule.custom("segments and fragments") { field in
            switch field.kind {
            case .pathSegment, .fragment:
                return field.value == "u-77812" || field.value == "frag-only"
            default: return false
            }
        }
        let (error, text) = try RedactionTests.record([RedactionTests.exchange(url: URL(string: "https://api.example.com/users/u-77812#frag-only")!)], redaction: .standard.adding(rule))
        #expect(error == nil, "\(String(describing: error))")
        #expect(try Self.entry(text).url == "https://api.example.com/users/\(Redaction.placeholder)#\(Redaction.placeholder)")
    }

    @Test("the scan's minimums are its lower bounds: a removed 5-digit number, a 5-character piece of a removed value and a 5-character secret environment value are not looked for elsewhere")
    func minimumsAreLowerBounds() throws {
        let digits = [RedactionTests.exchange(url: URL(string: "https://api.example.com/x")!, responseBody: #"{"pin":48213,"note":"room 48213"}"#)]
        let (digitsError, _) = try RedactionTests.record(digits)
        #expect(digitsError == nil, "\(String(describing: digitsError))")
        let piece = [RedactionTests.exchange(url: URL(string: "https://api.example.com/x")!, headers: ["Cookie": "sid=ab12x; theme=dark"], responseBody: "you are ab12x")]
        let (pieceError, _) = try RedactionTests.record(piece)
        #expect(pieceError == nil, "\(String(describing: pieceError))")
        let environment = [RedactionTests.exchange(url: URL(string: "https://api.example.com/x")!, responseBody: "auth zq81x")]
        let (environmentError, _) = try RedactionTests.record(environment, environment: ["AUTH": "Zq81x"])
        #expect(environmentError == nil, "\(String(describing: environmentError))")
    }
}
