#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// What one request reuses from the one before it, and that reuse never shows a
/// request what belongs to another: a stub's response head for the same URL, and
/// a request URL's parsed parts for the same text.
@Suite("Reuse across requests", .timeLimit(.minutes(1)))
struct ReuseAcrossRequestsTests {
    let session = URLSession.stubbed

    private func http(_ url: String) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(from: URL(string: url)!)
        return (data, try #require(response as? HTTPURLResponse))
    }

    @Test("from its second request on, a fixed stub answers the same URL with the one response it built, unchanged")
    func sameURLSharesTheResponse() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/profile"), with: .json(#"{"name":"Ada"}"#, headers: ["ETag": "v1"]))
            let (firstBody, first) = try await http("https://api.example.com/profile")
            let (secondBody, second) = try await http("https://api.example.com/profile")
            let (thirdBody, third) = try await http("https://api.example.com/profile")
            // The first answer builds its own head: most stubs are asked once.
            #expect(first !== second)
            #expect(second === third)
            for response in [first, third] {
                #expect(response.url == URL(string: "https://api.example.com/profile"))
                #expect(response.statusCode == 200)
                #expect(response.value(forHTTPHeaderField: "ETag") == "v1")
                #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
            }
            #expect(firstBody == secondBody && secondBody == thirdBody)
            #expect(String(decoding: thirdBody, as: UTF8.self) == #"{"name":"Ada"}"#)
        }
    }

    @Test("a template stub asked for URLs in turn gives each response the URL it was asked for")
    func otherURLsGetTheirOwnResponse() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/items/{id}"), with: .text("item"))
            let urls = ["https://api.example.com/items/1", "https://api.example.com/items/2", "https://api.example.com/items/1", "https://api.example.com/items/3"]
            var responses: [HTTPURLResponse] = []
            for url in urls {
                responses.append(try await http(url).1)
            }
            #expect(responses.map { $0.url?.absoluteString } == urls)
            #expect(responses[0] !== responses[1])
        }
    }

    @Test("a URL relative to a base, asked for after its absolute form was answered from the shared head, gets a response whose URL is the request's, base and all")
    func relativeURLKeepsItsBase() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/v1/users"), with: .text("users"))
            let base = URL(string: "https://api.example.com/v1/")!
            let relative = URL(string: "users", relativeTo: base)!
            let absolute = URL(string: "https://api.example.com/v1/users")!
            // Twice: the second answer keeps its head for the absolute URL's text.
            _ = try await scope.data(from: absolute)
            let (_, kept) = try await scope.data(from: absolute)
            let (_, response) = try await scope.data(from: relative)
            let http = try #require(response as? HTTPURLResponse)
            // Foundation on Linux makes a request's URL absolute, so the kept head is
            // the right one there; a URL that keeps its base gets a head of its own.
            let requested = try #require(URLRequest(url: relative).url)
            #expect(http.url?.baseURL == requested.baseURL)
            #expect((http === kept) == (requested.baseURL == nil))
            #expect(http.url?.absoluteString == "https://api.example.com/v1/users")
            #expect(http.statusCode == 200)
        }
    }

    @Test("requests for different URLs in turn are each matched by their own URL, not the previous request's")
    func alternatingURLsMatchTheirOwnStubs() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/a"), with: .text("a"))
            await scope.stub(.get("https://api.example.com/b"), with: .text("b"))
            var bodies: [String] = []
            for name in ["a", "b", "b", "a"] {
                bodies.append(String(decoding: try await http("https://api.example.com/\(name)").0, as: UTF8.self))
            }
            #expect(bodies == ["a", "b", "b", "a"])
            let uppercaseHost = try await http("https://API.EXAMPLE.COM/b")
            #expect(String(decoding: uppercaseHost.0, as: UTF8.self) == "b")
            #expect(uppercaseHost.1.url?.absoluteString == "https://API.EXAMPLE.COM/b")
        }
    }

    @Test("a sequence stub answers each request with its own response, none reused")
    func sequencesAreNotReused() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/status"), with: .sequence([.status(503), .status(200)]))
            let first = try await http("https://api.example.com/status").1
            let second = try await http("https://api.example.com/status").1
            let third = try await http("https://api.example.com/status").1
            let statuses: [Int] = [first.statusCode, second.statusCode, third.statusCode]
            #expect(statuses == [503, 200, 200])
        }
    }
}
