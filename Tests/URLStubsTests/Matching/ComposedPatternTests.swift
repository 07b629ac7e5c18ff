#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Composed patterns: or, not, URL regex, path suffix, file extension, scheme, form fields", .timeLimit(.minutes(1)))
struct ComposedPatternTests {
    /// Sends `method url` with `headers` and `body`; returns the body text, or
    /// `unmatched` when no stub answers.
    private func send(_ url: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) async -> String {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        do {
            return String(decoding: try await URLSession.stubbed.data(for: request).0, as: UTF8.self)
        } catch let error as URLError where error.code == .resourceUnavailable {
            return "unmatched"
        } catch {
            return "error \(error)"
        }
    }

    /// Runs `body` in a scope, ignoring the scope's report of unmatched requests.
    private func inScope(_ body: (StubScope) async throws -> Void) async throws {
        do {
            try await withStubScope { try await body($0) }
        } catch is StubVerificationError {}
    }

    /// The problem reported for a stub registered with `pattern`.
    private func problem(of pattern: RequestPattern) async -> String {
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(pattern, with: .text("never"))
            }
        }
        return error?.problems.first?.message ?? "no problem reported"
    }

    /// The "Nearest stubs" part of the failure of `request` in a scope prepared by
    /// `setup`, with `LINE` for the line each stub was registered at.
    private func nearMisses(of request: URLRequest, _ setup: @escaping (StubScope) async -> Void) async throws -> String {
        let captured = Shared("")
        try await inScope { scope in
            await setup(scope)
            do {
                _ = try await URLSession.stubbed.data(for: request)
                captured.value = "answered"
            } catch {
                captured.value = error.localizedDescription
            }
        }
        let message = captured.value.replacing(/ComposedPatternTests\.swift:\d+/, with: "ComposedPatternTests.swift:LINE")
        return message.components(separatedBy: "Nearest stubs:\n").last ?? message
    }

    private static func request(_ url: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    // MARK: - or, not, excluding

    @Test("or matches a request that either pattern matches, and nothing else")
    func or() async throws {
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/users").or(.post("https://api.example.com/members")), with: .text("people"))
            #expect(await send("https://api.example.com/users") == "people")
            #expect(await send("https://api.example.com/members", method: "POST") == "people")
            #expect(await send("https://api.example.com/members") == "unmatched")
            #expect(await send("https://api.example.com/users", method: "POST") == "unmatched")
        }
    }

    @Test("an or of exact URLs matches each by its origin and path as a request sends them: scheme and host in any case, the default port, and nothing whose origin or path differs")
    func orOfExactURLs() async throws {
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/v1/users").or(.get("http://127.0.0.1:8080/health")), with: .text("either"))
            #expect(await send("https://api.example.com/v1/users") == "either")
            #expect(await send("HTTPS://API.Example.COM:443/v1/users?page=2") == "either")
            #expect(await send("http://127.0.0.1:8080/health") == "either")
            #expect(await send("https://api.example.com/v1/users/") == "unmatched")
            #expect(await send("https://api.example.com/v1/Users") == "unmatched")
            #expect(await send("https://api.example.org/v1/users") == "unmatched")
            #expect(await send("http://api.example.com/v1/users") == "unmatched")
            #expect(await send("https://api.example.com:8443/v1/users") == "unmatched")
            #expect(await send("http://127.0.0.1/health") == "unmatched")
            #expect(await send("http://127.0.0.1:8080/healthz") == "unmatched")
        }
    }

    @Test("a chain of or is one flat choice, written in order")
    func orChains() {
        let pattern = RequestPattern.get("/a").or(.get("/b")).or(.get("/c").or(.get("/d")))
        #expect(pattern.description == "GET /a or GET /b or GET /c or GET /d")
        #expect(pattern.header("X-Key").description == "(GET /a or GET /b or GET /c or GET /d) [header X-Key]")
        #expect(RequestPattern.not(.get("/a").or(.get("/b"))).description == "not (GET /a or GET /b)")
        #expect(RequestPattern.get("/users/{id}").excluding(.get("/users/me")).description == "GET /users/{id} [not GET /users/me]")
    }

    @Test("the path parameters of an or are those of the alternative that matched")
    func orCapturesParameters() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/users/{id}").or(.get("https://api.example.com/people/{name}"))) { request in
                .text(request.pathParameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))
            }
            #expect(await send("https://api.example.com/users/7") == "id=7")
            #expect(await send("https://api.example.com/people/ada") == "name=ada")
        }
    }

    @Test("not matches every request the pattern does not match")
    func not() async throws {
        try await inScope { scope in
            await scope.stub(.not(.host("api.example.com")), with: .text("elsewhere"))
            #expect(await send("https://cdn.example.com/logo.png") == "elsewhere")
            #expect(await send("http://localhost:8080/", method: "DELETE") == "elsewhere")
            #expect(await send("https://api.example.com/users") == "unmatched")
        }
    }

    @Test("or, not and excluding decide with the predicates inside them, which run outside the registry's lock")
    func composedPredicates() async throws {
        try await inScope { scope in
            let traced = RequestPattern.predicate("a traced request") { $0.header("X-Trace") != nil }
            await scope.stub(.get("https://api.example.com/a").or(traced), with: .text("a or traced"))
            await scope.stub(.get("https://api.example.com/b").excluding(traced), with: .text("b untraced"))
            await scope.stub(.not(.predicate("a request with a body") { $0.body != nil }).excluding(.host("api.example.com")), with: .text("no body"))
            #expect(await send("https://api.example.com/a") == "a or traced")
            #expect(await send("https://api.example.com/z", headers: ["X-Trace": "1"]) == "a or traced")
            #expect(await send("https://api.example.com/b") == "b untraced")
            #expect(await send("https://api.example.com/b", headers: ["X-Trace": "1"]) == "a or traced")
            #expect(await send("https://cdn.example.com/x") == "no body")
            #expect(await send("https://cdn.example.com/x", method: "POST", body: "x") == "unmatched")
        }
    }

    @Test("excluding narrows a pattern, also an exact one found by its URL")
    func excluding() async throws {
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/users/{id}").excluding(.get("https://api.example.com/users/me")), with: .text("user"))
            await scope.stub(.get("https://api.example.com/health").excluding(.anyRequest.header("X-Probe")), with: .text("healthy"))
            #expect(await send("https://api.example.com/users/7") == "user")
            #expect(await send("https://api.example.com/users/me") == "unmatched")
            #expect(await send("https://api.example.com/health") == "healthy")
            #expect(await send("https://api.example.com/health", headers: ["X-Probe": "1"]) == "unmatched")
        }
    }

    @Test("a malformed part makes an or, a not and an excluding malformed, never a match-all")
    func malformedPartsSpread() async {
        let bad = RequestPattern.get("https://api.example.com/{id")
        let reason = #""https://api.example.com/{id" has a malformed template segment "{id": write {name} as a whole path segment"#
        #expect(await problem(of: .get("/a").or(bad)).hasSuffix("cannot be used: " + reason + "."))
        #expect(await problem(of: bad.or(.get("/a"))).hasSuffix("cannot be used: " + reason + "."))
        #expect(await problem(of: .not(bad)).hasSuffix("cannot be used: " + reason + "."))
        #expect(await problem(of: .get("/a").excluding(bad)).hasSuffix("cannot be used: " + reason + "."))
        #expect(await problem(of: .not(.url(matching: "("))).contains(#"the URL regular expression "(" cannot be compiled"#))
    }

    // MARK: - URL regular expressions

    @Test("a URL regular expression is searched in the whole URL Foundation sends, query included")
    func urlRegex() async throws {
        try await inScope { scope in
            await scope.stub(.url(matching: #"^https://api\.example\.com/users/\d+$"#), with: .text("user"))
            await scope.stub(.url(matching: #"[?&]page=\d+"#), with: .text("page"))
            await scope.stub(.post("/**").url(matching: "/upload"), with: .text("upload"))
            #expect(await send("https://api.example.com/users/42") == "user")
            #expect(await send("https://api.example.com/users/42", method: "PUT") == "user")
            #expect(await send("https://api.example.com/users/me") == "unmatched")
            #expect(await send("http://api.example.com/users/42") == "unmatched")
            #expect(await send("https://api.example.com/users/42/posts") == "unmatched")
            #expect(await send("https://any.example.com/list?sort=name&page=3") == "page")
            #expect(await send("https://files.example.com/v2/upload/big", method: "POST") == "upload")
            #expect(await send("https://files.example.com/v2/upload/big") == "unmatched")
        }
    }

    @Test("a URL regular expression sees the host in the ASCII form Foundation sends")
    func urlRegexSeesPunycode() async throws {
        try await inScope { scope in
            await scope.stub(.url(matching: #"^https://xn--bcher-kva\.example/"#), with: .text("books"))
            #expect(await send("https://xn--bcher-kva.example/x") == "books")
        }
    }

    @Test("a URL regular expression that does not compile, or is empty, is reported by name and never matches", arguments: [
        ("users/(\\d+", #"the URL regular expression "users/(\d+" cannot be compiled: "#),
        ("[z-a]", #"the URL regular expression "[z-a]" cannot be compiled: "#),
        ("", "the URL regular expression is empty, which would match every URL: use .anyRequest for that"),
    ])
    func badRegex(regex: String, reason: String) async {
        let message = await problem(of: .url(matching: regex))
        #expect(message.hasPrefix("The stub ANY any URL cannot be used: " + reason), "\(message)")
    }

    @Test("one URL regular expression answers many requests at once")
    func regexInParallel() async throws {
        try await withStubScope { scope in
            await scope.stub(.url(matching: #"/items/(\d+)$"#), with: .text("item"))
            let answers = await withTaskGroup(of: String.self) { group in
                for index in 0..<64 {
                    group.addTask { await send("https://api.example.com/items/\(index)") }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers == Array(repeating: "item", count: 64))
        }
    }

    // MARK: - Path suffix, file extension, scheme

    @Test("a path suffix matches the end of the path, not the query, percent-encoded like the path")
    func pathSuffix() async throws {
        try await inScope { scope in
            await scope.stub(.pathSuffix("/avatar.png"), with: .text("avatar"))
            await scope.stub(.get("https://api.example.com/**").pathSuffix("/café"), with: .text("café"))
            #expect(await send("https://cdn.example.com/u/7/avatar.png") == "avatar")
            #expect(await send("https://cdn.example.com/u/7/avatar.png?size=2") == "avatar")
            #expect(await send("https://cdn.example.com/u/7/big-avatar.png") == "unmatched")
            #expect(await send("https://cdn.example.com/u/7/avatar.png.bak") == "unmatched")
            #expect(await send("https://cdn.example.com/u/7?file=/avatar.png") == "unmatched")
            #expect(await send("https://api.example.com/menu/caf%C3%A9") == "café")
        }
    }

    @Test("a file extension matches the end of the last path segment, with or without its dot")
    func fileExtension() async throws {
        try await inScope { scope in
            await scope.stub(.fileExtension("png"), with: .text("png"))
            await scope.stub(.get("https://files.example.com/**").fileExtension(".tar.gz"), with: .text("archive"))
            #expect(await send("https://cdn.example.com/a/logo.png") == "png")
            #expect(await send("https://cdn.example.com/a/logo.png?v=2") == "png")
            #expect(await send("https://cdn.example.com/logo.png/raw") == "unmatched")
            #expect(await send("https://cdn.example.com/a/.png") == "unmatched")
            #expect(await send("https://cdn.example.com/a/logo.PNG") == "unmatched")
            #expect(await send("https://cdn.example.com/a/logopng") == "unmatched")
            #expect(await send("https://files.example.com/backup.tar.gz") == "archive")
            #expect(await send("https://files.example.com/backup.gz") == "unmatched")
        }
    }

    @Test("a scheme matches case-insensitively, on any host and path")
    func scheme() async throws {
        try await inScope { scope in
            await scope.stub(.scheme("HTTP"), with: .text("plain"))
            await scope.stub(.host("secure.example.com").scheme("https"), with: .text("secure"))
            #expect(await send("http://api.example.com/x") == "plain")
            #expect(await send("HTTP://localhost:8080/") == "plain")
            #expect(await send("https://api.example.com/x") == "unmatched")
            #expect(await send("https://secure.example.com/x") == "secure")
            #expect(await send("http://secure.example.com/x") == "plain")
        }
    }

    @Test("bad suffixes, extensions and schemes are reported with what is wrong", arguments: [
        (RequestPattern.pathSuffix(""), #"the path suffix "" is empty"#),
        (.pathSuffix(".json?x=1"), #"the path suffix ".json?x=1" contains "?", which starts the query, and the query is not part of the path: match it with .query(name, value)"#),
        (.pathSuffix("/page#top"), ##"the path suffix "/page#top" contains "#", which starts a fragment, and a fragment is never sent to a server"##),
        (.pathSuffix(" .json"), #"the path suffix " .json" has leading or trailing spaces"#),
        (.fileExtension("."), #"the file extension "." is empty"#),
        (.fileExtension("png/"), #"the file extension "png/" contains "/": an extension is the end of the last path segment; match a longer ending with .pathSuffix(_:)"#),
        (.scheme("https://"), #""https://" is not a scheme: a scheme is a letter followed by letters, digits, "+", "-" or "." (write the scheme alone, such as "https", without "://")"#),
        (.scheme(""), #""" is not a scheme: a scheme is a letter followed by letters, digits, "+", "-" or ".""#),
        (.post("/token").formField(""), "the form field name is empty"),
    ])
    func badParts(pattern: RequestPattern, reason: String) async {
        let message = await problem(of: pattern)
        #expect(message.hasSuffix("cannot be used: " + reason + "."), "\(message)")
    }

    // MARK: - Form fields

    @Test("a form field is read from a URL-encoded body, with + as a space and escapes decoded")
    func urlEncodedForm() async throws {
        let form = ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"]
        try await inScope { scope in
            await scope.stub(.post("https://auth.example.com/token").formField("grant_type", "refresh_token").formField("scope", "read write/all"), with: .text("token"))
            await scope.stub(.post("https://auth.example.com/login").formField("remember"), with: .text("remembered"))
            #expect(await send("https://auth.example.com/token", method: "POST", headers: form, body: "grant_type=refresh_token&scope=read+write%2Fall") == "token")
            #expect(await send("https://auth.example.com/token", method: "POST", body: "scope=read%20write/all&grant_type=refresh_token") == "token")
            #expect(await send("https://auth.example.com/token", method: "POST", headers: form, body: "grant_type=password&scope=read+write%2Fall") == "unmatched")
            #expect(await send("https://auth.example.com/token", method: "POST", headers: form, body: "grant_type=refresh_token") == "unmatched")
            #expect(await send("https://auth.example.com/login", method: "POST", headers: form, body: "user=ada&remember") == "remembered")
            #expect(await send("https://auth.example.com/login", method: "POST", headers: form, body: "user=ada&remember=") == "remembered")
            #expect(await send("https://auth.example.com/login", method: "POST", headers: form, body: "user=ada") == "unmatched")
        }
    }

    @Test("a field sent several times matches when any of its values does")
    func repeatedField() async throws {
        try await inScope { scope in
            await scope.stub(.post("https://api.example.com/tags").formField("tag", "b"), with: .text("b"))
            #expect(await send("https://api.example.com/tags", method: "POST", body: "tag=a&tag=b") == "b")
            #expect(await send("https://api.example.com/tags", method: "POST", body: "tag=a&tag=c") == "unmatched")
        }
    }

    @Test("a form field is read from a multipart body, part by part")
    func multipartForm() async throws {
        let boundary = "Boundary-7MA4YWxk"
        let body = [
            "--\(boundary)",
            #"Content-Disposition: form-data; name="title""#,
            "",
            "Holiday",
            "--\(boundary)",
            #"Content-Disposition: form-data; name="photo"; filename="a.jpg""#,
            "Content-Type: image/jpeg",
            "",
            "JPEGDATA",
            "--\(boundary)--",
            "",
        ].joined(separator: "\r\n")
        try await inScope { scope in
            await scope.stub(.post("https://api.example.com/photos").formField("title", "Holiday").formField("photo"), with: .text("uploaded"))
            #expect(await send("https://api.example.com/photos", method: "POST", headers: ["Content-Type": "multipart/form-data; boundary=\"\(boundary)\""], body: body) == "uploaded")
            #expect(await send("https://api.example.com/photos", method: "POST", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: body.replacingOccurrences(of: "Holiday", with: "Work")) == "unmatched")
            #expect(await send("https://api.example.com/photos", method: "POST", headers: ["Content-Type": "multipart/form-data"], body: body) == "unmatched")
        }
    }

    @Test("a body that is not a form, or no body, matches no form field")
    func notAForm() async throws {
        try await inScope { scope in
            await scope.stub(.post("https://api.example.com/form").formField("a", "1"), with: .text("form"))
            #expect(await send("https://api.example.com/form", method: "POST", headers: ["Content-Type": "application/json"], body: #"{"a":"1"}"#) == "unmatched")
            #expect(await send("https://api.example.com/form", method: "POST") == "unmatched")
            #expect(await send("https://api.example.com/form", method: "POST", body: "a=1") == "form")
        }
    }

    // MARK: - Near misses

    @Test("alternatives that differ in the same way are reported on one line")
    func orNearMissOneLine() async throws {
        let report = try await nearMisses(of: Self.request("https://api.example.com/people")) { scope in
            await scope.stub(.get("https://api.example.com/users").or(.get("https://api.example.com/members")), with: .status(200))
        }
        #expect(report == """
              1. GET https://api.example.com/users or GET https://api.example.com/members (registered at URLStubsTests/ComposedPatternTests.swift:LINE)
                 - path: expected /users or /members, got /people
            """)
    }

    @Test("alternatives that differ in several ways are reported each with its differences")
    func orNearMissNumbered() async throws {
        let report = try await nearMisses(of: Self.request("https://api.example.com/users", method: "DELETE")) { scope in
            await scope.stub(.get("https://api.example.com/users").or(.delete("https://api.example.com/members").header("X-Admin")), with: .status(200))
        }
        #expect(report == """
              1. GET https://api.example.com/users or DELETE https://api.example.com/members [header X-Admin] (registered at URLStubsTests/ComposedPatternTests.swift:LINE)
                 - method: expected GET, in alternative 1 (GET https://api.example.com/users), got DELETE
                 - path: expected /members, in alternative 2 (DELETE https://api.example.com/members [header X-Admin]), got /users
                 - header: expected X-Admin: (any value), in alternative 2 (DELETE https://api.example.com/members [header X-Admin]), got no X-Admin header
            """)
    }

    @Test("a request that matches what it must not is reported with the pattern it matched")
    func notNearMiss() async throws {
        let report = try await nearMisses(of: Self.request("https://api.example.com/users/me")) { scope in
            await scope.stub(.get("https://api.example.com/users/{id}").excluding(.get("https://api.example.com/users/me")), with: .status(200))
        }
        #expect(report == """
              1. GET https://api.example.com/users/{id} [not GET https://api.example.com/users/me] (registered at URLStubsTests/ComposedPatternTests.swift:LINE)
                 - predicate: expected a request not matching GET https://api.example.com/users/me, got GET https://api.example.com/users/me
            """)
    }

    @Test("a URL regular expression, a path suffix, a file extension and a scheme that do not match are named")
    func urlPartNearMisses() async throws {
        let report = try await nearMisses(of: Self.request("https://api.example.com/users/me.json?v=1")) { scope in
            await scope.stub(.url(matching: #"/users/\d+"#), with: .status(200))
            await scope.stub(.get("https://api.example.com/users/{file}").pathSuffix(".xml"), with: .status(200))
            await scope.stub(.get("https://api.example.com/users/{file}").fileExtension("csv"), with: .status(200))
        }
        #expect(report == """
              1. GET https://api.example.com/users/{file} [file extension .csv] (registered at URLStubsTests/ComposedPatternTests.swift:LINE)
                 - path: expected file extension .csv, got /users/me.json
              2. GET https://api.example.com/users/{file} [path ending in ".xml"] (registered at URLStubsTests/ComposedPatternTests.swift:LINE)
                 - path: expected a path ending in ".xml", got /users/me.json
              3. ANY any URL [URL matching /users/\\d+] (registered at URLStubsTests/ComposedPatternTests.swift:LINE)
                 - url: expected a URL matching /users/\\d+, got https://api.example.com/users/me.json?v=1
            """)
        let schemeReport = try await nearMisses(of: Self.request("https://api.example.com/users/me.json")) { scope in
            await scope.stub(.get("/users/{file}").scheme("http"), with: .status(200))
        }
        #expect(schemeReport == """
              1. GET /users/{file} [scheme http] (registered at URLStubsTests/ComposedPatternTests.swift:LINE)
                 - origin: expected scheme http, got scheme https
            """)
    }

    @Test("a form field that differs is named, with the values sent or why the body is not a form")
    func formNearMisses() async throws {
        let sent = Self.request("https://auth.example.com/token", method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "grant_type=password&user=ada")
        let report = try await nearMisses(of: sent) { scope in
            await scope.stub(.post("https://auth.example.com/token").formField("grant_type", "refresh_token"), with: .status(200))
            await scope.stub(.post("https://auth.example.com/token").formField("refresh_token"), with: .status(200))
        }
        #expect(report == """
              1. POST https://auth.example.com/token [form field refresh_token] (registered at URLStubsTests/ComposedPatternTests.swift:LINE)
                 - body: expected a form field refresh_token, got no refresh_token field
              2. POST https://auth.example.com/token [form field grant_type=refresh_token] (registered at URLStubsTests/ComposedPatternTests.swift:LINE)
                 - body: expected form field grant_type=refresh_token, got grant_type=password
            """)
        let json = Self.request("https://auth.example.com/token", method: "POST", headers: ["Content-Type": "application/json"], body: "{}")
        let jsonReport = try await nearMisses(of: json) { scope in
            await scope.stub(.post("https://auth.example.com/token").formField("grant_type"), with: .status(200))
        }
        #expect(jsonReport.hasSuffix("- body: expected a form field grant_type, got a body of type application/json, not a form"))
    }
}
