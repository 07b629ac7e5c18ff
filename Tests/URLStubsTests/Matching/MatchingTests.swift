#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Matching", .timeLimit(.minutes(1)))
struct MatchingTests {
    /// Sends `method url` with `headers` and `body`; returns the body text, or the
    /// error code as text when the request fails.
    private func send(_ url: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) async -> String {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        return await bodyTextOrError(request)
    }

    /// Runs `body` in a scope, ignoring the scope's report of unmatched requests.
    private func inScope(_ body: (StubScope) async throws -> Void) async throws {
        do {
            try await withStubScope { try await body($0) }
        } catch is StubVerificationError {}
    }

    private let unmatched = "error \(URLError.Code.resourceUnavailable.rawValue)"

    @Test("among several matching stubs the most recently registered wins")
    func newestWins() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/v"), with: .text("first"))
            await scope.stub(.any("https://api.example.com/{x}"), with: .text("template"))
            await scope.stub(.get("https://api.example.com/v"), with: .text("second"))
            #expect(await send("https://api.example.com/v") == "second")
            await scope.stub(.anyRequest, with: .text("catch-all"))
            #expect(await send("https://api.example.com/v") == "catch-all")
        }
    }

    @Test("the method must match, whatever its case, and .any matches every method")
    func methods() async throws {
        try await inScope { scope in
            await scope.stub(.post("https://api.example.com/m"), with: .text("post"))
            await scope.stub(.method("purge", "https://api.example.com/m"), with: .text("purge"))
            await scope.stub(.any("https://api.example.com/anything"), with: .text("any"))
            #expect(await send("https://api.example.com/m", method: "POST") == "post")
            #expect(await send("https://api.example.com/m", method: "PURGE") == "purge")
            #expect(await send("https://api.example.com/m", method: "pUrGe") == "purge")
            #expect(await send("https://api.example.com/m") == unmatched)
            #expect(await send("https://api.example.com/anything", method: "DELETE") == "any")
            #expect(await send("https://api.example.com/anything", method: "OPTIONS") == "any")
        }
    }

    @Test("scheme and host compare case-insensitively and a default port is implied")
    func originNormalization() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("HTTPS://API.Example.com:443/p"), with: .text("p"))
            #expect(await send("https://api.example.com/p") == "p")
            #expect(await send("https://api.EXAMPLE.com:443/p") == "p")
        }
    }

    @Test("a different scheme, host, port or path does not match")
    func originAndPathMustMatch() async throws {
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/p"), with: .text("p"))
            #expect(await send("http://api.example.com/p") == unmatched)
            #expect(await send("https://other.example.com/p") == unmatched)
            #expect(await send("https://api.example.com:8443/p") == unmatched)
            #expect(await send("https://api.example.com/p/") == unmatched)
            #expect(await send("https://api.example.com/P") == unmatched)
        }
    }

    @Test("templates match one segment per {name} or *, and ** matches the rest")
    func templates() async throws {
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/users/{id}/posts/*"), with: .text("post"))
            await scope.stub(.get("https://api.example.com/files/**"), with: .text("file"))
            #expect(await send("https://api.example.com/users/7/posts/3") == "post")
            #expect(await send("https://api.example.com/users/7/posts") == unmatched)
            #expect(await send("https://api.example.com/users/7/posts/3/x") == unmatched)
            #expect(await send("https://api.example.com/files/a/b/c.txt") == "file")
            #expect(await send("https://api.example.com/files/") == "file")
        }
    }

    @Test("a path parameter is captured percent-decoded, and an empty segment, a missing one or one too many does not match", arguments: [
        ("https://api.example.com/users/7/posts", "id=7"),
        ("https://api.example.com/users/J%C3%BCrgen%20M/posts", "id=Jürgen M"),
        ("https://api.example.com/users/%zz/posts", "id=%zz"),
        ("https://api.example.com/users/%C3%A9t%C3%A9/posts", "id=été"),
        ("https://api.example.com/users//posts", "no match"),
        ("https://api.example.com/users/7", "no match"),
        ("https://api.example.com/users/7/posts/", "no match"),
        ("https://api.example.com/users/7/post", "no match"),
        ("https://api.example.com/users/7/postsx", "no match"),
    ])
    func capturedParameters(url: String, expected: String) async throws {
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/users/{id}/posts")) { request in
                .text(request.pathParameters.map { "\($0.key)=\($0.value)" }.joined(separator: "&"))
            }
            #expect(await send(url) == (expected == "no match" ? unmatched : expected))
        }
    }

    @Test("a percent-encoded brace in a pattern is a literal, not a template")
    func encodedBraceIsLiteral() async throws {
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/%7Bliteral%7D"), with: .text("literal"))
            #expect(await send("https://api.example.com/%7Bliteral%7D") == "literal")
            #expect(await send("https://api.example.com/other") == unmatched)
        }
    }

    @Test("escapes in a path compare in normal form (RFC 3986): their hex digits in either case, an escaped unreserved character as the character", arguments: [
        ("https://api.example.com/a%2fb", "https://api.example.com/a%2Fb"),
        ("https://api.example.com/a%2Fb", "https://api.example.com/a%2fb"),
        ("https://api.example.com/%7Euser", "https://api.example.com/~user"),
        ("https://api.example.com/~user", "https://api.example.com/%7euser"),
        ("https://api.example.com/%41bc", "https://api.example.com/Abc"),
        ("/files/%e2%82%ac", "https://api.example.com/files/%E2%82%AC"),
        ("https://api.example.com/files/{name}/%2fraw", "https://api.example.com/files/a%2fb/%2Fraw"),
    ])
    func pathEscapesInNormalForm(pattern: String, url: String) async throws {
        try await withStubScope { scope in
            await scope.stub(.get(pattern), with: .text("same"))
            await scope.stub(.get(pattern).pathSuffix("%2Fraw"), with: .text("same, with a suffix"))
            #expect(await send(url) == (url.hasSuffix("raw") ? "same, with a suffix" : "same"))
        }
    }

    @Test("an escape of a reserved character is not the character: a%2Fb is one segment, a/b two")
    func reservedEscapesStayApart() async throws {
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/a%2Fb"), with: .text("one segment"))
            #expect(await send("https://api.example.com/a/b") == unmatched)
            #expect(await send("https://api.example.com/a%2fb") == "one segment")
        }
    }

    @Test("a URL's query compares item by item, decoded: an escaped = or & stays inside its name or value, and a near miss writes it escaped")
    func queryItemsAreNotFlattened() async throws {
        let captured = Shared("")
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/find?a=b%3Dc&d=e%26f"), with: .text("a is b=c, d is e&f"))
            #expect(await send("https://api.example.com/find?d=e%26f&a=b%3Dc") == "a is b=c, d is e&f")
            do {
                _ = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/find?a%3Db=c&d=e%26f")!)
            } catch {
                captured.value = error.localizedDescription
            }
            #expect(await send("https://api.example.com/find?a=b%3Dc&d=e&f") == unmatched)
        }
        #expect(captured.value.hasSuffix("- query: expected a=b=c&d=e%26f, got a%3Db=c&d=e%26f"))
    }

    @Test("a path-only pattern matches that path on any host")
    func pathOnlyPattern() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("/health"), with: .text("ok"))
            #expect(await send("https://a.example.com/health") == "ok")
            #expect(await send("http://b.example.org:8080/health") == "ok")
        }
    }

    @Test("a URL without a query matches any query; with a query it requires exactly those items in any order")
    func queries() async throws {
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/search"), with: .text("any query"))
            await scope.stub(.get("https://api.example.com/find?q=swift&page=2"), with: .text("exact query"))
            #expect(await send("https://api.example.com/search?q=x") == "any query")
            #expect(await send("https://api.example.com/search") == "any query")
            #expect(await send("https://api.example.com/find?page=2&q=swift") == "exact query")
            #expect(await send("https://api.example.com/find?q=swift") == unmatched)
            #expect(await send("https://api.example.com/find?q=swift&page=2&extra=1") == unmatched)
        }
    }

    @Test(".query requires an item and allows others")
    func queryCondition() async throws {
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/list").query("page", "2"), with: .text("page 2"))
            await scope.stub(.get("https://api.example.com/list").query("cursor"), with: .text("cursor"))
            #expect(await send("https://api.example.com/list?page=2&size=10") == "page 2")
            #expect(await send("https://api.example.com/list?cursor=abc") == "cursor")
            #expect(await send("https://api.example.com/list?page=3") == unmatched)
        }
    }

    @Test("header conditions compare names case-insensitively and values exactly")
    func headers() async throws {
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/me").header("Authorization", "Bearer good"), with: .text("me"))
            await scope.stub(.get("https://api.example.com/any-auth").header("authorization"), with: .text("some auth"))
            #expect(await send("https://api.example.com/me", headers: ["authorization": "Bearer good"]) == "me")
            #expect(await send("https://api.example.com/me", headers: ["Authorization": "Bearer bad"]) == unmatched)
            #expect(await send("https://api.example.com/me") == unmatched)
            #expect(await send("https://api.example.com/any-auth", headers: ["Authorization": "x"]) == "some auth")
        }
    }

    @Test("body conditions: exact bytes, containment and JSON equality regardless of key order")
    func bodies() async throws {
        try await inScope { scope in
            await scope.stub(.post("https://api.example.com/exact").body("a=1"), with: .text("exact"))
            await scope.stub(.post("https://api.example.com/contains").bodyContains("needle"), with: .text("contains"))
            await scope.stub(.post("https://api.example.com/json").jsonBody(UserClient.User(id: 1, name: "A")), with: .text("json"))
            #expect(await send("https://api.example.com/exact", method: "POST", body: "a=1") == "exact")
            #expect(await send("https://api.example.com/exact", method: "POST", body: "a=2") == unmatched)
            #expect(await send("https://api.example.com/contains", method: "POST", body: "hay needle hay") == "contains")
            #expect(await send("https://api.example.com/json", method: "POST", body: #"{ "name": "A", "id": 1 }"#) == "json")
            #expect(await send("https://api.example.com/json", method: "POST", body: #"{"name":"B","id":1}"#) == unmatched)
        }
    }

    @Test("a custom predicate decides")
    func predicate() async throws {
        try await inScope { scope in
            await scope.stub(.predicate("a request with a trace id") { $0.header("X-Trace-Id") != nil }, with: .text("traced"))
            #expect(await send("https://anything.example.com/x", headers: ["X-Trace-Id": "1"]) == "traced")
            #expect(await send("https://anything.example.com/x") == unmatched)
        }
    }

    @Test("URL values work wherever URL strings do")
    func urlOverloads() async throws {
        let url = URL(string: "https://api.example.com/url-value?x=1")!
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .text("get"))
            await scope.stub(.delete(url), with: .text("delete"))
            #expect(await send(url.absoluteString) == "get")
            #expect(await send(url.absoluteString, method: "DELETE") == "delete")
        }
    }

    @Test("a request that only a malformed stub comes close to names that stub and its problem")
    func malformedStubIsANearMiss() async throws {
        let captured = Shared("")
        try await inScope { scope in
            await scope.stub(.get("https://api.example.com/seeds/{id"), with: .text("never"))
            do {
                _ = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/seeds/1")!)
            } catch {
                captured.value = error.localizedDescription
            }
        }
        #expect(captured.value.contains("""
            1. GET https://api.example.com/seeds/{id (registered at URLStubsTests/MatchingTests.swift:
            """))
        #expect(captured.value.hasSuffix(#"- pattern: cannot be used: "https://api.example.com/seeds/{id" has a malformed template segment "{id": write {name} as a whole path segment"#))
    }

    @Test("a malformed pattern is reported with the reason and never matches", arguments: [
        ("", "the URL pattern is empty"),
        ("api.example.com/x", "has no scheme"),
        ("localhost:8080/health", "has no scheme"),
        ("https:///x", "has no host"),
        ("https://api.example.com:+443/x", "has an invalid port \"+443\": a port is a number from 0 to 65535"),
        ("https://api.example.com:-1/x", "has an invalid port \"-1\""),
        ("https://api.example.com/**/x", "uses ** before the end of the path"),
        ("https://api.example.com/{id", "malformed template segment"),
        ("https://api.example.com/x#top", "has a fragment"),
        (" https://api.example.com/x", "leading or trailing spaces"),
    ])
    func malformedPatterns(pattern: String, reason: String) async throws {
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get(pattern), with: .text("never"))
            }
        }
        let message = error?.problems.first?.message ?? ""
        #expect(message.hasPrefix("The stub GET \(pattern.isEmpty ? "\"\"" : pattern) cannot be used: "))
        #expect(message.contains(reason))
        #expect(error?.description.contains("(registered at URLStubsTests/MatchingTests.swift:") == true)
    }
}
