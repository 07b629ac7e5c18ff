#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// A predicate added to a URL template (`.get(".../{id}").matching(...) { ... }`)
/// reads the parameters the template captured from the request it is asked about,
/// wherever the pattern is used: a stub, a waiter, a fault rule, a near-miss report.
@Suite("A predicate reads the path parameters its template captured", .timeLimit(.minutes(1)))
struct PredicatePathParametersTests {
    private let session = URLSession.stubbed

    @Test("a stub's predicate sees the template's parameter, and answers only the requests it holds for")
    func stubPredicate() async throws {
        let seen = Shared<[[String: String]]>([])
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/users/{id}").matching("the id is 7") { request in
                seen.value.append(request.pathParameters)
                return request.pathParameters["id"] == "7"
            }, with: .text("seven"))
            await scope.stub(.get("https://api.example.com/users/{id}").matching("the id is 8") { request in
                request.pathParameters["id"] == "8"
            }, with: .text("eight"))
            let answer1 = try await getText("https://api.example.com/users/7")
            #expect(answer1 == "seven")
            let answer2 = try await getText("https://api.example.com/users/8")
            #expect(answer2 == "eight")
        }
        #expect(seen.value.contains(["id": "7"]))
        #expect(seen.value.contains(["id": "8"]))
        #expect(seen.value.allSatisfy { $0.count == 1 })
    }

    @Test("a predicate sees every parameter of a template of two, percent-decoded")
    func twoParameters() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/teams/{team}/members/{member}").matching("a member of the red team") { request in
                request.pathParameters == ["team": "red team", "member": "ada"]
            }, with: .text("member"))
            let answer3 = try await getText("https://api.example.com/teams/red%20team/members/ada")
            #expect(answer3 == "member")
        }
    }

    @Test("a predicate that does not hold for the request's parameter is named in the near-miss report")
    func nearMiss() async throws {
        let message = Shared("")
        let seen = Shared<[[String: String]]>([])
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get("https://api.example.com/users/{id}").matching("the id is 7") { request in
                    seen.value.append(request.pathParameters)
                    return request.pathParameters["id"] == "7"
                }, with: .text("seven"))
                do {
                    _ = try await session.data(from: URL(string: "https://api.example.com/users/9")!)
                } catch {
                    message.value = error.localizedDescription
                }
            }
        }
        #expect(error?.problems.count == 1)
        #expect(message.value.contains("- predicate: expected the id is 7, got false"))
        #expect(!seen.value.isEmpty && seen.value.allSatisfy { $0 == ["id": "9"] })
    }

    @Test("a waiter's predicate sees the parameters of the template it waits for")
    func waiterPredicate() async throws {
        try await withStubScope { scope in
            // A wildcard, so that the logged requests carry no parameters of their own.
            await scope.stub(.get("https://api.example.com/orders/*"), with: .text("order"))
            let waiting = Task {
                try await scope.waitForRequest(matching: .get("https://api.example.com/orders/{id}").matching("order 42") { request in
                    request.pathParameters["id"] == "42"
                }, timeout: .patience)
            }
            let answer4 = try await getText("https://api.example.com/orders/41")
            #expect(answer4 == "order")
            let answer5 = try await getText("https://api.example.com/orders/42")
            #expect(answer5 == "order")
            let request = try await waiting.value
            #expect(request.url.absoluteString == "https://api.example.com/orders/42")
        }
    }

    @Test("a fault rule's predicate sees the parameters of its template: only the requests it holds for fail")
    func faultPredicate() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/items/{id}"), with: .text("item"))
            await scope.injectFaults(.get("https://api.example.com/items/{id}").matching("item 13") { request in
                request.pathParameters["id"] == "13"
            }, rate: 1, faults: [.status(503)])
            let (_, response) = try await session.data(from: URL(string: "https://api.example.com/items/13")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 503)
            let answer6 = try await getText("https://api.example.com/items/12")
            #expect(answer6 == "item")
        }
    }

    @Test("after a choice of templates, a predicate sees the parameters of the alternative that matched, even when it was first met with another's")
    func alternativeThatMatched() async throws {
        // The first alternative's own predicate is not known in the first round, so
        // the second alternative matches then, and the outer predicate is first met
        // with `uid`; in the next round the first matches, with `id`.
        let pattern = RequestPattern.get("https://api.example.com/users/{id}").matching("always") { _ in true }
            .or(.get("https://api.example.com/users/{uid}"))
            .matching("the id is 7") { $0.pathParameters["id"] == "7" }
        try await withStubScope { scope in
            await scope.stub(pattern, with: .text("seven"))
            let answer = try await getText("https://api.example.com/users/7")
            #expect(answer == "seven")
        }
    }

    @Test("a predicate asked about a logged request sees its own pattern's parameters, not those the answering stub captured")
    func loggedRequest() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/users/{id}"), with: .text("user"))
            _ = try await getText("https://api.example.com/users/7")
            let logged = await scope.requests(matching: .get("https://api.example.com/users/7").matching("no parameters") { $0.pathParameters.isEmpty })
            #expect(logged.map(\.url.absoluteString) == ["https://api.example.com/users/7"])
            let named = await scope.requests(matching: .get("https://api.example.com/{kind}/7").matching("a user") { $0.pathParameters == ["kind": "users"] })
            #expect(named.count == 1)
            // The log itself keeps what the answering stub captured.
            #expect(await scope.requests.first?.pathParameters == ["id": "7"])
        }
    }
}
