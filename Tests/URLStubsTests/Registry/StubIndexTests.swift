#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// A scope compares its stubs one by one until it holds more than a few, then
/// indexes the exact ones by method and route. Which stub answers must not depend
/// on that: each case here is answered in a scope small enough to compare, and
/// again in one whose older stubs (that never match) push it past the index's
/// threshold.
@Suite("Stub index", .timeLimit(.minutes(1)))
struct StubIndexTests {
    /// One case: the stubs, oldest first, and the requests sent in order with
    /// the answer each must get.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var stubs: [(pattern: RequestPattern, text: String, times: StubExpectation)]
        var requests: [(method: String, url: String, answer: String)]
        var testDescription: String { name }
    }

    /// More stubs than any scope compares one by one before it indexes them.
    private static let padding = 12
    private static let unmatched = "error \(URLError.Code.resourceUnavailable.rawValue)"

    static let cases: [Case] = [
        Case(
            name: "the newest of exact and template stubs wins",
            stubs: [
                (.get("https://api.example.com/v"), "first", .anyNumber),
                (.any("https://api.example.com/{x}"), "template", .anyNumber),
                (.get("https://api.example.com/v"), "second", .anyNumber),
            ],
            requests: [("GET", "https://api.example.com/v", "second"), ("POST", "https://api.example.com/v", "template")]
        ),
        Case(
            name: "an exact stub for any method and one for its own method",
            stubs: [
                (.any("https://api.example.com/m"), "any", .anyNumber),
                (.post("https://api.example.com/m"), "post", .anyNumber),
            ],
            requests: [("POST", "https://api.example.com/m", "post"), ("DELETE", "https://api.example.com/m", "any")]
        ),
        Case(
            name: "scheme and host in any case, a default port implied",
            stubs: [(.get("HTTPS://API.Example.com:443/p"), "p", .anyNumber)],
            requests: [
                ("GET", "https://api.example.com/p", "p"),
                ("GET", "https://api.EXAMPLE.com:443/p", "p"),
                ("GET", "https://api.example.com:8443/p", unmatched),
                ("GET", "https://api.example.com/p/", unmatched),
                ("GET", "https://api.example.com/P", unmatched),
            ]
        ),
        Case(
            name: "a used-up exact stub gives way to an older one",
            stubs: [
                (.get("https://api.example.com/once"), "older", .anyNumber),
                (.get("https://api.example.com/once"), "newer", .once),
            ],
            requests: [("GET", "https://api.example.com/once", "newer"), ("GET", "https://api.example.com/once", "older")]
        ),
        Case(
            name: "a path-only pattern and a pattern with a query",
            stubs: [
                (.get("/health"), "health", .anyNumber),
                (.get("https://api.example.com/search?q=a"), "search", .anyNumber),
            ],
            requests: [
                ("GET", "https://other.example.com/health", "health"),
                ("GET", "https://api.example.com/search?q=a", "search"),
                ("GET", "https://api.example.com/search?q=b", unmatched),
            ]
        ),
        Case(
            name: "a percent-encoded path compares its bytes",
            stubs: [(.get("https://api.example.com/a%20b"), "encoded", .anyNumber)],
            requests: [("GET", "https://api.example.com/a%20b", "encoded"), ("GET", "https://api.example.com/a%2520b", unmatched)]
        ),
    ]

    @Test("a small scope and an indexed one answer every request with the same stub", arguments: cases)
    func sameAnswers(_ testCase: Case) async throws {
        #expect(Self.padding > ScopeState.indexThreshold, "the padded scope must be one that indexes its stubs")
        #expect(try await answers(testCase, padding: 0) == testCase.requests.map(\.answer))
        #expect(try await answers(testCase, padding: Self.padding) == testCase.requests.map(\.answer))
    }

    @Test("a stub removed from an indexed scope no longer answers")
    func removalFromIndexedScope() async throws {
        #expect(Self.padding > ScopeState.indexThreshold, "the padded scope must be one that indexes its stubs")
        try await withStubScope { scope in
            for index in 0..<Self.padding {
                await scope.stub(.get("https://padding.example/\(index)"), with: .text("padding"))
            }
            await scope.stub(.get("https://api.example.com/r"), with: .text("kept"))
            let removed = await scope.stub(.get("https://api.example.com/r"), with: .text("removed"))
            #expect(await send("GET", "https://api.example.com/r") == "removed")
            await removed.remove()
            #expect(await send("GET", "https://api.example.com/r") == "kept")
        }
    }

    /// The answers `testCase`'s requests get in a scope that first registers
    /// `padding` stubs no request matches.
    private func answers(_ testCase: Case, padding: Int) async throws -> [String] {
        var answers: [String] = []
        do {
            try await withStubScope { scope in
                for index in 0..<padding {
                    await scope.stub(.get("https://padding.example/\(index)"), with: .text("padding"))
                }
                for stub in testCase.stubs {
                    await scope.stub(stub.pattern, with: .text(stub.text), times: stub.times)
                }
                for request in testCase.requests {
                    answers.append(await send(request.method, request.url))
                }
            }
        } catch is StubVerificationError {
            // The cases' unmatched requests are reported at the scope's end.
        }
        return answers
    }

    /// Sends `method url` through the stubbed session; the body text, or the
    /// error code.
    private func send(_ method: String, _ url: String) async -> String {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        return await bodyTextOrError(request)
    }
}
