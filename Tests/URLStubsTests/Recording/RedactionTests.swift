#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Redaction before a cassette is written, and the scan that refuses to write a
/// secret that survived it.
@Suite("Redaction that fails closed")
struct RedactionTests {
    static let url = URL(string: "https://api.example.com/session?access_token=tok-123456789&page=2")!

    /// A logged exchange as the network answered it.
    static func exchange(
        url: URL = url,
        headers: [String: String] = [:],
        body: String? = nil,
        status: Int = 200,
        responseHeaders: [String: String] = [:],
        responseBody: String = ""
    ) -> RecordedExchange {
        var request = URLRequest(url: url)
        request.allHTTPHeaderFields = headers
        let recorded = RecordedRequest(urlRequest: request, body: body.map { Data($0.utf8) }, sequenceNumber: 1)
        return RecordedExchange(request: recorded, outcome: .response(status: status, headers: responseHeaders, body: Data(responseBody.utf8)), source: .network, startedAt: .zero, endedAt: .zero)
    }

    /// Records `exchanges` with `redaction` into a fresh file; returns the error, or
    /// the file's text.
    static func record(_ exchanges: [RecordedExchange], redaction: Redaction = .standard, environment: [String: String] = [:]) throws -> (CassetteError?, String?) {
        let directory = try TemporaryDirectory()
        let file = directory.file("out.har")
        let recording = CassetteRecording(file: file, mode: .record, redaction: redaction, kept: [])
        let error = recording.write(exchanges, environment: environment)
        let text = try? String(contentsOf: file, encoding: .utf8)
        return (error, text)
    }

    @Test("by default credential headers, secret-looking headers, query items and JSON string fields are replaced, and nothing else")
    func standardRules() throws {
        let exchanges = [Self.exchange(
            headers: ["Authorization": "Bearer abcdefghijkl", "Cookie": "sid=zyxwvutsrq", "X-Api-Key": "k-000111222", "Accept": "application/json"],
            body: #"{"user":"ann","password":"hunter2hunter2","attempts":3}"#,
            responseHeaders: ["Set-Cookie": "sid=qwertyuiop; HttpOnly", "Content-Type": "application/json"],
            responseBody: #"{"session_token":"s-9876543210","session_count":4,"name":"Ann"}"#
        )]
        let (error, text) = try Self.record(exchanges)
        #expect(error == nil)
        let file = try #require(text)
        let entry = try #require(try HARFile.decode(Data(file.utf8)).cassetteEntries.first)
        #expect(entry.url == "https://api.example.com/session?access_token=URLSTUBS-REDACTED&page=2")
        #expect(entry.requestHeaders == [
            .init(name: "Accept", value: "application/json"),
            .init(name: "Authorization", value: "URLSTUBS-REDACTED"),
            .init(name: "Cookie", value: "URLSTUBS-REDACTED"),
            .init(name: "X-Api-Key", value: "URLSTUBS-REDACTED"),
        ])
        #expect(entry.requestBody.map { String(decoding: $0, as: UTF8.self) } == #"{"attempts":3,"password":"URLSTUBS-REDACTED","user":"ann"}"#)
        guard case let .response(_, headers, body) = entry.answer else {
            Issue.record("expected a response")
            return
        }
        #expect(headers == [.init(name: "Content-Type", value: "application/json"), .init(name: "Set-Cookie", value: "URLSTUBS-REDACTED")])
        // A number under a secret-looking name keeps its type: only strings are removed.
        #expect(String(decoding: body, as: UTF8.self) == #"{"name":"Ann","session_count":4,"session_token":"URLSTUBS-REDACTED"}"#)
    }

    @Test("a user's rules remove a header, a query item, a JSON path, a pattern and what a closure picks")
    func userRules() throws {
        let exchanges = [Self.exchange(
            url: URL(string: "https://api.example.com/v1/accounts/ACCT-55501?sig=abc&x=1")!,
            headers: ["X-Tenant": "tenant-42"],
            responseBody: #"{"owner":{"email":"ann@example.com","name":"Ann"},"items":[{"iban":"DE001"},{"iban":"DE002"}]}"#
        )]
        let redaction = Redaction.standard.adding(
            .header("x-tenant"),
            .queryItem("sig"),
            .jsonField("$.owner.email"),
            .jsonField("items.iban"),
            .pattern("ACCT-[0-9]+"),
            .custom("names") { field in field.kind == .jsonField(["owner", "name"]) }
        )
        let (error, text) = try Self.record(exchanges, redaction: redaction)
        #expect(error == nil)
        let file = try #require(text)
        let entry = try #require(try HARFile.decode(Data(file.utf8)).cassetteEntries.first)
        #expect(entry.url == "https://api.example.com/v1/accounts/URLSTUBS-REDACTED?sig=URLSTUBS-REDACTED&x=1")
        #expect(entry.requestHeaders == [.init(name: "X-Tenant", value: "URLSTUBS-REDACTED")])
        guard case let .response(_, _, body) = entry.answer else { return }
        #expect(String(decoding: body, as: UTF8.self) == #"{"items":[{"iban":"URLSTUBS-REDACTED"},{"iban":"URLSTUBS-REDACTED"}],"owner":{"email":"URLSTUBS-REDACTED","name":"URLSTUBS-REDACTED"}}"#)
    }

    @Test("a removed token echoed in a response body refuses the cassette: nothing is written, and the error names the entry and field but not the secret")
    func echoedSecret() throws {
        let exchanges = [
            Self.exchange(url: URL(string: "https://api.example.com/ok")!),
            Self.exchange(
                url: URL(string: "https://api.example.com/me")!,
                headers: ["Authorization": "Bearer s3cr3t-t0k3n-value"],
                responseBody: #"{"you_sent":"Bearer s3cr3t-t0k3n-value"}"#
            ),
        ]
        let (error, text) = try Self.record(exchanges)
        #expect(text == nil)
        let path = try #require(Self.path(of: error))
        #expect(error?.description == "URLStubs: did not write the cassette \(path): a secret survived redaction in entry 2 (GET https://api.example.com/me), response body: the value removed from the request header Authorization of entry 2. Nothing was written. Add a redaction rule that removes it (Redaction.standard.adding(.jsonField(…)) or .pattern(…)), or stop the server from echoing it.")
        #expect(!(error?.description.contains("s3cr3t") ?? true))
    }

    @Test("the credential inside a removed value counts too: a bearer token echoed without its scheme is found")
    func credentialPiece() throws {
        let exchanges = [Self.exchange(
            url: URL(string: "https://api.example.com/me")!,
            headers: ["Authorization": "Bearer s3cr3t-t0k3n-value"],
            responseBody: "your token is s3cr3t-t0k3n-value"
        )]
        let (error, _) = try Self.record(exchanges)
        #expect(error?.description.contains("response body: part of the value removed from the request header Authorization of entry 1") == true)
    }

    @Test("the value of a secret-looking environment variable anywhere in the exchanges refuses the cassette")
    func environmentSecret() throws {
        let exchanges = [Self.exchange(url: URL(string: "https://api.example.com/echo")!, responseBody: "deploy key is ghp_0123456789abcdef")]
        let (error, text) = try Self.record(exchanges, environment: ["GITHUB_TOKEN": "ghp_0123456789abcdef", "HOME": "/root"])
        #expect(text == nil)
        #expect(error?.description.contains("response body: the value of the environment variable GITHUB_TOKEN") == true)
        #expect(!(error?.description.contains("ghp_") ?? true))
    }

    @Test("the shell's working directories (PWD, OLDPWD) and agent sockets are no secrets, though PWD's and SSH_AUTH_SOCK's names hold secret words: a report naming the directory is written whole")
    func workingDirectoryIsNoSecret() throws {
        #expect(Redaction.looksSecret("PWD") && Redaction.looksSecret("SSH_AUTH_SOCK"))
        #expect(!Redaction.looksSecret("OLDPWD") && !Redaction.looksSecret("GPG_AGENT_INFO") && !Redaction.looksSecret("SSH_AGENT_PID"))
        let exchanges = [Self.exchange(url: URL(string: "https://api.example.com/echo")!, responseBody: "built in /work/project and /work/previous, agent at /tmp/ssh-agent.sock")]
        let environment = ["PWD": "/work/project", "OLDPWD": "/work/previous", "SSH_AUTH_SOCK": "/tmp/ssh-agent.sock", "DB_PWD": "hunter2-db"]
        let (error, text) = try Self.record(exchanges, environment: environment)
        #expect(error == nil)
        #expect(text?.contains("built in /work/project and /work/previous, agent at /tmp/ssh-agent.sock") == true)
        // A variable whose name only contains such a word still counts.
        let echoed = [Self.exchange(url: URL(string: "https://api.example.com/echo")!, responseBody: "db password hunter2-db")]
        let (refusal, _) = try Self.record(echoed, environment: environment)
        #expect(refusal?.description.contains("the value of the environment variable DB_PWD") == true)
    }

    @Test("a secret echoed in the URL is masked in the error")
    func secretInURL() throws {
        let exchanges = [Self.exchange(
            url: URL(string: "https://api.example.com/users/p4ssw0rd-leaked/profile")!,
            body: #"{"password":"p4ssw0rd-leaked"}"#
        )]
        let (error, _) = try Self.record(exchanges)
        #expect(error?.description.contains("entry 1 (GET https://api.example.com/users/•••/profile), URL: the value removed from the JSON field password in the request body of entry 1") == true)
    }

    @Test("a pattern rule that is not a regular expression fails before any traffic, naming the rule")
    func invalidPattern() async throws {
        let directory = try TemporaryDirectory()
        let error = await thrownError(CassetteError.self) {
            try await withStubScope(cassette: directory.file("x.har"), mode: .record, redaction: .standard.adding(.pattern("([a-z"))) { _ in }
        }
        #expect(error?.description.hasPrefix("URLStubs: the redaction rule pattern ([a-z cannot be used: it is not a valid regular expression") == true)
        #expect(!FileManager.default.fileExists(atPath: directory.file("x.har").path))
    }

    @Test("on replay a recorded value's placeholders stand for any text in their places, side by side too, and the rest must be equal; in a JSON body as in a query or a header")
    func placeholdersMatchOnlyTheirPlaces() throws {
        let redacted = Redaction.placeholder
        #expect(Redaction.value("1;access_token=abc", matches: "1;access_token=" + redacted))
        #expect(!Redaction.value("2;access_token=abc", matches: "1;access_token=" + redacted))
        #expect(Redaction.value("card 4111 end", matches: "card " + redacted + redacted + " end"))
        #expect(!Redaction.value("card 4111 fin", matches: "card " + redacted + redacted + " end"))
        #expect(Redaction.value("anything", matches: redacted))
        #expect(Redaction.value(nil, matches: nil))
        #expect(!Redaction.value("", matches: nil))
        #expect(!Redaction.value(nil, matches: redacted))
        func body(_ actual: String, matches recorded: String) -> Bool {
            Redaction.body(Data(actual.utf8), matches: Data(recorded.utf8))
        }
        #expect(body(#"{"h":"Bearer abc"}"#, matches: #"{"h":"Bearer \#(redacted)"}"#))
        #expect(!body(#"{"h":"Basic abc"}"#, matches: #"{"h":"Bearer \#(redacted)"}"#))
        #expect(body(#"{"p":"{\"password\":\"x\",\"n\":1}"}"#, matches: #"{"p":"{\"n\":1,\"password\":\"\#(redacted)\"}"}"#))
        #expect(!body(#"{"p":"{\"password\":\"x\",\"n\":2}"}"#, matches: #"{"p":"{\"n\":1,\"password\":\"\#(redacted)\"}"}"#))
    }

    @Test("on replay a placeholder right after = stands for one value of a query, a form or a cookie: it does not reach past & or ;, nor past # but in a form body")
    func listValuePlaceholders() {
        let redacted = Redaction.placeholder
        func body(_ actual: String, matches recorded: String) -> Bool {
            Redaction.body(Data(actual.utf8), matches: Data(recorded.utf8))
        }
        #expect(body("user=ann&password=other", matches: "user=ann&password=" + redacted))
        #expect(!body("user=ann&password=x&admin=true", matches: "user=ann&password=" + redacted))
        #expect(!body("password=x&admin=true&user=ann", matches: "password=" + redacted + "&user=ann"))
        #expect(body("password=x&user=ann", matches: "password=" + redacted + "&user=ann"))
        // In a form body # is text (the redaction cuts values at & and ; only).
        #expect(body("user=ann&password=p#1", matches: "user=ann&password=" + redacted))
        #expect(Redaction.value("https://app.example.com/cb?access_token=abc", matches: "https://app.example.com/cb?access_token=" + redacted))
        #expect(!Redaction.value("https://app.example.com/cb?access_token=abc#admin", matches: "https://app.example.com/cb?access_token=" + redacted))
        #expect(!Redaction.value("session=abc; admin=1", matches: "session=" + redacted))
        // Elsewhere a placeholder stands for any text: a multipart value or a
        // pattern rule's cut may hold these characters.
        #expect(body("--b\r\n\r\np&ss#1;x\r\n--b--", matches: "--b\r\n\r\n" + redacted + "\r\n--b--"))
        #expect(Redaction.value("Bearer a&b#c", matches: "Bearer " + redacted))
    }

    @Test("on replay a list value's end is found by byte, as a server splits: a & ; or # followed by a combining mark still ends it, and a form's ; separates items as its & does")
    func listValuePlaceholdersEndAtBytes() {
        let redacted = Redaction.placeholder
        func body(_ actual: String, matches recorded: String) -> Bool {
            Redaction.body(Data(actual.utf8), matches: Data(recorded.utf8))
        }
        // A server reads `\u{301}admin=true` as an item of its own: not the recorded request.
        #expect(!body("user=ann&password=x&\u{301}admin=true", matches: "user=ann&password=" + redacted))
        #expect(!body("user=ann&password=x;\u{301}admin=true", matches: "user=ann&password=" + redacted))
        #expect(!Redaction.value("https://app.example.com/cb?access_token=abc&\u{301}admin=1", matches: "https://app.example.com/cb?access_token=" + redacted))
        #expect(!Redaction.value("https://app.example.com/cb?access_token=abc#\u{301}admin", matches: "https://app.example.com/cb?access_token=" + redacted))
        // A form is split at ; as at & (as the redactor splits it): a recorded
        // value's placeholder does not take the item after a ;.
        #expect(!body("user=ann&password=y;admin=false", matches: "user=ann&password=" + redacted))
        #expect(body("user=ann&password=y;admin=true", matches: "user=ann&password=" + redacted + ";admin=true"))
        // A value that starts with a combining mark is one value, as the redactor
        // removed it (it splits at the `=` byte too).
        #expect(body("user=ann&password=\u{301}x", matches: "user=ann&password=" + redacted))
    }

    @Test("on replay query items recorded whole are paired first, so a placeholder never takes the item a recorded value needs")
    func queryItemsPairWholeValuesFirst() {
        let redacted = Redaction.placeholder
        func items(_ pairs: [(String, String)]) -> [QueryItem] {
            pairs.map { QueryItem(name: $0.0, value: $0.1) }
        }
        #expect(Redaction.queryItems(items([("a", "1"), ("a", "2")]), match: items([("a", redacted), ("a", "1")])))
        #expect(Redaction.queryItems(items([("a", "x-2"), ("a", "1")]), match: items([("a", redacted), ("a", "x-" + redacted)])))
        #expect(!Redaction.queryItems(items([("a", "2"), ("a", "3")]), match: items([("a", redacted), ("a", "1")])))
        #expect(!Redaction.queryItems(items([("a", "1"), ("b", "2")]), match: items([("a", redacted), ("a", "1")])))
    }

    @Test("on replay a query or a form is read as the redaction reads it, split at ; as at &: a placeholder stands for no raw ;, and an encoded one (%3B) is part of the value it replaced")
    func replayedItemsSplitAtSemicolons() {
        let redacted = Redaction.placeholder
        // As a recorded URL's query is compared with a request's.
        func query(_ actual: String, matches recorded: String) -> Bool {
            Redaction.queryItems(URLText.listItems(actual[...]), match: URLText.listItems(recorded[...]))
        }
        #expect(!query("token=y;admin=1", matches: "token=" + redacted))
        #expect(!query("token=x-1;admin=1", matches: "token=x-" + redacted))
        #expect(query("token=x-1;admin=1", matches: "token=x-" + redacted + ";admin=1"))
        #expect(!query("token=x-1;admin=2", matches: "token=x-" + redacted + ";admin=1"))
        #expect(query("token=y", matches: "token=" + redacted))
        // An encoded ; was part of the value the redaction replaced: it replays.
        #expect(query("token=a%3Bb&x=1", matches: "token=" + redacted + "&x=1"))
        #expect(query("variables=%7B%22password%22%3A%22p%3Bw%22%7D", matches: "variables=%7B%22password%22%3A%22" + redacted + "%22%7D"))
        func body(_ actual: String, matches recorded: String) -> Bool {
            Redaction.body(Data(actual.utf8), matches: Data(recorded.utf8))
        }
        #expect(body("password=p%3Bw&user=ann", matches: "user=ann&password=" + redacted))
        #expect(!body("password=p;w&user=ann", matches: "user=ann&password=" + redacted))
    }

    @Test("on replay query items cut by placeholders are paired as a whole, not first come first served: one never takes the item another needs")
    func queryItemsPairCutValuesAsAWhole() {
        let redacted = Redaction.placeholder
        func items(_ pairs: [(String, String)]) -> [QueryItem] {
            pairs.map { QueryItem(name: $0.0, value: $0.1) }
        }
        // `x-…` also matches `x-1-y`, which only `x-…-y` can take.
        #expect(Redaction.queryItems(items([("a", "x-1-y"), ("a", "x-2")]), match: items([("a", "x-" + redacted), ("a", "x-" + redacted + "-y")])))
        #expect(Redaction.queryItems(items([("a", "x-2"), ("a", "x-1-y")]), match: items([("a", "x-" + redacted), ("a", "x-" + redacted + "-y")])))
        #expect(Redaction.queryItems(items([("a", "k1-v"), ("a", "k2-w"), ("a", "k3-v")]), match: items([("a", redacted + "-v"), ("a", "k2-" + redacted), ("a", "k" + redacted)])))
        #expect(!Redaction.queryItems(items([("a", "x-1"), ("a", "x-2")]), match: items([("a", "x-" + redacted), ("a", "x-" + redacted + "-y")])))
    }

    @Test("URLSTUBS_RECORD must be all, missing or none, in any case; empty counts as unset")
    func environmentOverride() throws {
        #expect(try CassetteMode.replay.effective(in: ["URLSTUBS_RECORD": "all"]) == .record)
        #expect(try CassetteMode.replay.effective(in: ["URLSTUBS_RECORD": "missing"]) == .recordMissing)
        #expect(try CassetteMode.record.effective(in: ["URLSTUBS_RECORD": "none"]) == .replay)
        #expect(try CassetteMode.replay.effective(in: ["URLSTUBS_RECORD": "ALL"]) == .record)
        #expect(try CassetteMode.replay.effective(in: ["URLSTUBS_RECORD": "Missing"]) == .recordMissing)
        #expect(try CassetteMode.record.effective(in: ["URLSTUBS_RECORD": "NONE"]) == .replay)
        #expect(try CassetteMode.record.effective(in: [:]) == .record)
        #expect(try CassetteMode.recordMissing.effective(in: ["URLSTUBS_RECORD": ""]) == .recordMissing)
        let error = #expect(throws: CassetteError.self) { try CassetteMode.replay.effective(in: ["URLSTUBS_RECORD": "yes"]) }
        #expect(error?.description.contains("URLSTUBS_RECORD") == true)
    }

    static func path(of error: CassetteError?) -> String? {
        if case let .leakedSecret(path, _)? = error { return path }
        return nil
    }
}

/// What an independent review found the leak scan missed.
@Suite("Redaction: forms, user information and encodings")
struct RedactionEncodingTests {
    @Test("a form-encoded body's secret-looking items are removed like query items")
    func formBody() throws {
        let exchanges = [RedactionTests.exchange(
            url: URL(string: "https://auth.example.com/oauth/token")!,
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "grant_type=refresh_token&refresh_token=R3fr3sh-abcdefgh&client_secret=S3cr3t%2Bxyz12345"
        )]
        let (error, text) = try RedactionTests.record(exchanges)
        #expect(error == nil)
        let file = try #require(text)
        #expect(!file.contains("R3fr3sh") && !file.contains("S3cr3t"))
        #expect(file.contains("grant_type=refresh_token&refresh_token=URLSTUBS-REDACTED&client_secret=URLSTUBS-REDACTED"))
    }

    @Test("user information in a URL is removed, and the cassette still replays the URL")
    func userInformation() async throws {
        let exchanges = [RedactionTests.exchange(url: URL(string: "https://ann:pa55word-123@api.example.com/me")!)]
        let (error, text) = try RedactionTests.record(exchanges)
        #expect(error == nil)
        let file = try #require(text)
        #expect(!file.contains("pa55word"))
        #expect(file.contains("https://URLSTUBS-REDACTED@api.example.com/me"))
    }

    @Test("a secret echoed percent-encoded in a URL is found, and masked in the error in that form too")
    func percentEncodedEcho() throws {
        let exchanges = [RedactionTests.exchange(
            url: URL(string: "https://api.example.com/cb?state=abc-def%2Bghijk/Zm9v")!,
            headers: ["Authorization": "Bearer abc-def+ghijk/Zm9v"]
        )]
        let (error, text) = try RedactionTests.record(exchanges)
        #expect(text == nil)
        let message = try #require(error?.description)
        #expect(message.contains("entry 1 (GET https://api.example.com/cb?state=•••), URL: part of the value removed from the request header Authorization of entry 1"))
        #expect(!message.contains("ghijk"))
    }

    @Test("a body with a byte-order mark replays byte for byte")
    func byteOrderMark() throws {
        let body = Data([0xEF, 0xBB, 0xBF]) + Data("text".utf8)
        let (text, encoding) = HARText.encode(body)
        #expect(HARText.decode(text, encoding: encoding) == body)
    }
}
