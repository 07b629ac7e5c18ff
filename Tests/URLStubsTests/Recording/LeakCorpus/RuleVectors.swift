#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Secrets in places the rules must reach: path segments, fragments, JSON numbers
/// and keys, wildcard JSON paths, forms, multipart, NDJSON and server-sent events,
/// names of the wider default list, and redirects.
enum RuleVectors {
    static let placeholder = "URLSTUBS-REDACTED"

    /// A GET of `path` answered with `response`, recorded with `redaction`.
    static func get(_ name: String, _ path: String, secret: String, redaction: Redaction = .standard, headers: [String: String] = [:], response: @escaping @Sendable (ServedRequest) -> ServedResponse = { _ in .text("ok") }, _ expected: LeakVector.Expected) -> LeakVector {
        LeakVector(name, secret: secret, redaction: redaction, requests: { [.to($0.url(path), headers: headers)] }, respond: response, expected)
    }

    /// A POST of `body` with `contentType`.
    static func post(_ name: String, body: String, contentType: String, secret: String, redaction: Redaction = .standard, _ expected: LeakVector.Expected) -> LeakVector {
        LeakVector(name, secret: secret, redaction: redaction, requests: {
            [.to($0.url("/submit"), method: "POST", headers: ["Content-Type": contentType], body: Data(body.utf8))]
        }, expected)
    }

    static let multipart = [
        "--XyZ", "Content-Disposition: form-data; name=\"user\"", "", "ann",
        "--XyZ", "Content-Disposition: form-data; name=\"password\"", "", "mult1part-Pw",
        "--XyZ", "Content-Disposition: form-data; name=\"meta\"; filename=\"m.json\"", "Content-Type: application/json", "", #"{"api_key":"mult1part-Key"}"#,
        "--XyZ--", "",
    ].joined(separator: "\r\n")

    static let all: [LeakVector] = [
        get("a path segment after a named one", "/v1/accounts/ACCT-99812/history", secret: "ACCT-99812", redaction: .standard.adding(.pathSegment(after: "accounts")),
            .redacted(["/v1/accounts/\(placeholder)/history"])),
        LeakVector("fragment items are redacted like query items", secret: "frag-T0ken-1", requests: { [.to(URL(string: $0.url("/cb").absoluteString + "#access_token=frag-T0ken-1&state=x")!)] },
                   .redacted(["/cb#access_token=\(placeholder)&state=x"])),
        LeakVector("the fragment rule removes a whole fragment", secret: "frag-s3cret-2", redaction: .standard.adding(.fragment), requests: { [.to(URL(string: $0.url("/cb").absoluteString + "#frag-s3cret-2")!)] },
                   .redacted(["/cb#\(placeholder)"])),
        get("a JSON number of four digits or more under a secret-looking name", "/x", secret: "987654", response: { _ in .json(#"{"pin":987654,"count":3}"#) },
            .redacted([#"{\"count\":3,\"pin\":\"\#(placeholder)\"}"#])),
        get("a JSON number a jsonField rule names, however short", "/x", secret: "\"code\":42", redaction: .standard.adding(.jsonField("account.code")), response: { _ in .json(#"{"account":{"code":42}}"#) },
            .redacted([#"{\"account\":{\"code\":\"\#(placeholder)\"}}"#])),
        get("a JSON key a custom rule picks is renamed", "/x", secret: "key-0f-S3cret", redaction: .standard.adding(.custom("keys of grants") { field in
            if case .jsonKey(["grants"]) = field.kind { return true }
            return false
        }), response: { _ in .json(#"{"grants":{"key-0f-S3cret":true}}"#) }, .redacted([#"{\"grants\":{\"\#(placeholder)\":true}}"#])),
        get("items[*].id matches every element's id", "/x", secret: "id-000111", redaction: .standard.adding(.jsonField("items[*].id")), response: { _ in .json(#"{"items":[{"id":"id-000111"},{"id":"id-000222"}]}"#) },
            .redacted([#"{\"items\":[{\"id\":\"\#(placeholder)\"},{\"id\":\"\#(placeholder)\"}]}"#])),
        get("$.items[*].id matches every element's id", "/x", secret: "id-000333", redaction: .standard.adding(.jsonField("$.items[*].id")), response: { _ in .json(#"{"items":[{"id":"id-000333"}]}"#) },
            .redacted([#"{\"items\":[{\"id\":\"\#(placeholder)\"}]}"#])),
        get("$['items'][0].id matches only the first element", "/x", secret: "id-000444", redaction: .standard.adding(.jsonField("$['items'][0].id")), response: { _ in .json(#"{"items":[{"id":"id-000444"},{"id":"id-000555"}]}"#) },
            .redacted([#"{\"items\":[{\"id\":\"\#(placeholder)\"},{\"id\":\"id-000555\"}]}"#])),
        get("*.secret matches under any key, and a whole object a path names is removed", "/x", secret: "obj-S3cret", redaction: .standard.adding(.jsonField("*.hidden"), .jsonField("vault")),
            response: { _ in .json(#"{"a":{"hidden":"x-1"},"vault":{"inner":"obj-S3cret"}}"#) }, .redacted([#"{\"a\":{\"hidden\":\"\#(placeholder)\"},\"vault\":\"\#(placeholder)\"}"#])),
        get("a rule that matches nothing in the whole recording refuses the cassette", "/x", secret: "unused-1", redaction: .standard.adding(.jsonField("itemz[*].id")), response: { _ in .json(#"{"items":[{"id":"unused-1"}]}"#) },
            .failed("URLStubs: did not write the cassette {file}: the redaction rule JSON field itemz[*].id removed nothing in its 1 entry, so what it was meant to remove may be in them. Nothing was written. Fix the rule (a JSON path, a header or item name spelled as the exchanges spells it), or remove it.")),
        get("a JSON path that cannot be read is refused with the reason", "/x", secret: "bad-path-1", redaction: .standard.adding(.jsonField("items..id")), response: { _ in .json(#"{"items":[{"id":"bad-path-1"}]}"#) },
            .failed("URLStubs: the redaction rule JSON field items..id cannot be used: it is not a JSON path URLStubs can read: recursive descent (..) is not supported; use * for any one key. Nothing was recorded.")),
        post("a form body that ends with a line break", body: "user=ann&password=f0rm-Passw0rd\n", contentType: "application/x-www-form-urlencoded", secret: "f0rm-Passw0rd",
             .redacted(["user=ann&password=\(placeholder)\\n"])),
        post("a form body with pwd and passwd fields", body: "pwd=short-Pw1&passwd=Long%2BPw2", contentType: "application/x-www-form-urlencoded", secret: "short-Pw1",
             .redacted(["pwd=\(placeholder)&passwd=\(placeholder)"])),
        post("a multipart body, field by field and inside a JSON part", body: multipart, contentType: "multipart/form-data; boundary=XyZ", secret: "mult1part",
             .redacted(["name=\\\"password\\\"\\r\\n\\r\\n\(placeholder)\\r\\n", #"{\"api_key\":\"\#(placeholder)\"}"#, "\\r\\nann\\r\\n"])),
        post("a multipart body without a boundary is replaced by a marker", body: multipart, contentType: "multipart/form-data", secret: "mult1part",
             .redacted(["\(placeholder): URLStubs did not write this body: its multipart Content-Type names no boundary"])),
        get("NDJSON, line by line", "/x", secret: "nd-T0ken", response: { _ in ServedResponse(headers: ["Content-Type": "application/x-ndjson"], body: Data("{\"token\":\"nd-T0ken-1\"}\n{\"token\":\"nd-T0ken-2\"}\n".utf8)) },
            .redacted([#"{\"token\":\"\#(placeholder)\"}\n{\"token\":\"\#(placeholder)\"}\n"#])),
        get("NDJSON without its type, line by line", "/x", secret: "nd-T0ken", response: { _ in .text("{\"session\":\"nd-T0ken-3\"}\n{\"session\":\"nd-T0ken-4\"}") },
            .redacted([#"{\"session\":\"\#(placeholder)\"}\n{\"session\":\"\#(placeholder)\"}"#])),
        get("NDJSON with a line that is not JSON is replaced by a marker", "/x", secret: "nd-T0ken", response: { _ in ServedResponse(headers: ["Content-Type": "application/x-ndjson"], body: Data("{\"token\":\"nd-T0ken-5\"}\n{\"token\":nd-T0ken-6}\n".utf8)) },
            .redacted(["\(placeholder): URLStubs did not write this body: its line 2 cannot be parsed"])),
        get("server-sent events: JSON data", "/events", secret: "sse-T0ken", response: { _ in ServedResponse(headers: ["Content-Type": "text/event-stream"], body: Data("event: auth\ndata: {\"token\":\"sse-T0ken-1\"}\n\ndata: {\"n\":1}\n\n".utf8)) },
            .redacted([#"event: auth\ndata: {\"token\":\"\#(placeholder)\"}\n\ndata: {\"n\":1}\n\n"#])),
        get("server-sent events: form data", "/events", secret: "sse-T0ken", response: { _ in ServedResponse(headers: ["Content-Type": "text/event-stream"], body: Data("data: access_token=sse-T0ken-2&expires=3600\n\n".utf8)) },
            .redacted(["data: access_token=\(placeholder)&expires=3600"])),
        get("server-sent events whose data line opens JSON that does not parse are replaced by a marker", "/events", secret: "sse-T0ken", response: { _ in ServedResponse(headers: ["Content-Type": "text/event-stream"], body: Data("data: {\"token\":\"sse-T0ken-3\"\ndata: more\n\n".utf8)) },
            .redacted(["\(placeholder): URLStubs did not write this body: the data of its line 1 cannot be parsed"])),
        LeakVector("a secret in a request header's name", secret: "hdr-N4me-S3cret", requests: {
            [.to($0.url("/x"), headers: ["X-Api-Key": "hdr-N4me-S3cret", "X-Echo-hdr-N4me-S3cret": "1"])]
        }, .refused("the name of request header 2: the value removed from the request header X-Api-Key of entry 1")),
        get("the query item sig", "/x?sig=abcdef0123&page=1", secret: "abcdef0123", .redacted(["?sig=\(placeholder)&page=1"])),
        get("the query items jwt, apikey and signature", "/x?jwt=eyJhbGciOi.x.y&apikey=ak-12345&X-Amz-Signature=f00ba7", secret: "ak-12345",
            .redacted(["?jwt=\(placeholder)&apikey=\(placeholder)&X-Amz-Signature=\(placeholder)"])),
        get("the header X-Auth", "/x", secret: "x-auth-Val", headers: ["X-Auth": "x-auth-Val"], .redacted([#""name" : "X-Auth","#])),
        get("a JSON credential field", "/x", secret: "cred-V4lue", response: { _ in .json(#"{"credentials":{"user":"ann"},"credential":"cred-V4lue"}"#) },
            .redacted([#"\"credential\":\"\#(placeholder)\""#, #"\"user\":\"ann\""#])),
        get("names that only contain a secret word in another word are kept: author, design, bypass, keyboard", "/x?design=flat&bypass=no", secret: "not-present-anywhere",
            response: { _ in .json(#"{"author":"Ann","keyboard":"qwerty","signup":true}"#) }, .redacted([#"{\"author\":\"Ann\",\"keyboard\":\"qwerty\",\"signup\":true}"#, "?design=flat&bypass=no"])),
        get("a redacted body's Content-Length is the redacted body's length", "/x", secret: "len-T0ken-1", response: { _ in .json(#"{"token":"len-T0ken-1"}"#) },
            .redacted([#""value" : "29""#, #"{\"token\":\"\#(placeholder)\"}"#])),
        LeakVector("a followed redirect whose final answer echoes the token", secret: ScanVectors.token, requests: { [.to($0.url("/start"), headers: ScanVectors.bearer)] }, respond: { request in
            request.path == "/start" ? ServedResponse(status: 302, headers: ["Location": "/final"]) : .text("token " + (request.header("Authorization") ?? ""))
        }, .refused("response body: the value removed from the request header Authorization of entry 1")),
        LeakVector("a followed redirect whose final answer has a token field", secret: "redir-T0ken", requests: { [.to($0.url("/start"))] }, respond: { request in
            request.path == "/start" ? ServedResponse(status: 302, headers: ["Location": "/final"]) : .json(#"{"access_token":"redir-T0ken"}"#)
        }, .redacted([#"{\"access_token\":\"\#(placeholder)\"}"#])),
    ]
}

@Suite("Leak corpus: rules", .timeLimit(.minutes(1)))
struct RuleCorpusTests {
    @Test("each vector is redacted or refused", arguments: RuleVectors.all)
    func vector(_ vector: LeakVector) async throws {
        try await vector.check()
    }

    @Test("a cassette with a redacted path segment replays for any value of that segment, with the server stopped")
    func redactedSegmentReplays() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("accounts.har")
        let server = try LocalServer { _ in .json(#"{"balance":3}"#) }
        try await withStubScope(cassette: file, mode: .record, redaction: .standard.adding(.pathSegment(after: "accounts"))) { _ in
            _ = try await URLSession.stubbed.data(from: server.url("/accounts/ACCT-1/balance"))
        }
        server.stop()
        try await withStubScope(cassette: file) { _ in
            let (data, _) = try await URLSession.stubbed.data(from: server.url("/accounts/ACCT-2/balance"))
            #expect(String(decoding: data, as: UTF8.self) == #"{"balance":3}"#)
        }
    }

    @Test("secret-looking names, by words: the wider list, and words that merely contain one")
    func names() {
        for name in ["Authorization", "X-Auth", "auth_token", "sig", "X-Amz-Signature", "credential", "passwd", "pwd", "jwt", "apikey", "X-Api-Key", "DB_PASS", "userPIN", "csrf", "sessionId", "client_secret", "passcode", "oneTimePasscode"] {
            #expect(Redaction.looksSecret(name), "\(name)")
        }
        for name in ["author", "design", "signup", "bypass", "keyboard", "monkey", "passenger", "spin", "page", "Content-Type", "id", "name"] {
            #expect(!Redaction.looksSecret(name), "\(name)")
        }
    }
}

@Suite("Recording settings in the environment")
struct RecordingEnvironmentTests {
    @Test("URLSTUBS_VERIFY_LIVE: 1, true, yes and on turn live checks on; 0, false, no, off and unset do not; anything else is an error naming the variable")
    func verifyLive() {
        for value in ["1", "true", "YES", "on", "On"] {
            #expect((try? LiveCheck.setting(in: ["URLSTUBS_VERIFY_LIVE": value]).get()) == true, "\(value)")
        }
        for value in ["0", "false", "no", "off", ""] {
            #expect((try? LiveCheck.setting(in: ["URLSTUBS_VERIFY_LIVE": value]).get()) == false, "\(value)")
        }
        #expect((try? LiveCheck.setting(in: [:]).get()) == false)
        guard case let .failure(error) = LiveCheck.setting(in: ["URLSTUBS_VERIFY_LIVE": "enabled"]) else {
            Issue.record("expected an error")
            return
        }
        #expect(error.description == #"URLStubs: the environment variable URLSTUBS_VERIFY_LIVE is set to "enabled", which URLStubs does not accept: it must be 1, true, yes or on to check stubs against the real server, or 0, false, no or off (or unset) not to."#)
        // Every scope of such a run starts with this problem (ScopeState's first problems).
        #expect(LiveCheck.problems(in: ["URLSTUBS_VERIFY_LIVE": "enabled"]).map(\.message) == [error.description])
        #expect(LiveCheck.problems(in: ["URLSTUBS_VERIFY_LIVE": "on"]).isEmpty)
    }

    @Test("a bad URLSTUBS_RECORD is an error about that environment variable, not about redaction")
    func recordSetting() {
        #expect(throws: CassetteError.self) { try CassetteMode.replay.effective(in: ["URLSTUBS_RECORD": "yes"]) }
        do {
            _ = try CassetteMode.replay.effective(in: ["URLSTUBS_RECORD": "yes"])
        } catch {
            #expect(error.description == #"URLStubs: the environment variable URLSTUBS_RECORD is set to "yes", which URLStubs does not accept: it must be all, missing or none (or unset)."#)
        }
    }
}
