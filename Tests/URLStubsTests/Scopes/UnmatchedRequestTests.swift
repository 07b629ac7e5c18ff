#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Unmatched requests", .timeLimit(.minutes(1)))
struct UnmatchedRequestTests {
    struct BodyError: Error, Equatable {}

    @Test("an unmatched request fails at once with a URLError naming the method, the URL and the scope")
    func unmatchedRequestFails() async throws {
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope("lists users") { scope in
                await scope.stub(.get("https://api.example.com/users"), with: .json([String]()))
                let failure = await thrownError(URLError.self) {
                    _ = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/posts")!)
                }
                #expect(failure?.code == .resourceUnavailable)
                let message = failure?.localizedDescription ?? ""
                #expect(message.hasPrefix("URLStubs: no stub matches GET https://api.example.com/posts in scope #"))
                #expect(message.contains("\"lists users\""))
                #expect(message.contains("UnmatchedRequestTests.swift"))
            }
        }
        let problems = error?.problems ?? []
        #expect(problems.count == 1)
        guard case let .unmatchedRequest(request, nearMisses)? = problems.first?.kind else {
            Issue.record("expected an unmatched-request problem, got \(problems)")
            return
        }
        #expect(request.description == "GET https://api.example.com/posts")
        #expect(nearMisses.map(\.stub) == ["GET https://api.example.com/users"])
        #expect(problems.first?.location?.fileID.hasSuffix("UnmatchedRequestTests.swift") == true)
    }

    @Test("every unmatched request is listed when the scope ends, in order")
    func everyUnmatchedRequestIsListed() async throws {
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { _ in
                for path in ["a", "b", "c"] {
                    _ = try? await URLSession.stubbed.data(from: URL(string: "https://api.example.com/\(path)")!)
                }
            }
        }
        let listed = error?.problems.compactMap { problem -> String? in
            guard case let .unmatchedRequest(request, _) = problem.kind else { return nil }
            return request.url.path
        }
        #expect(listed == ["/a", "/b", "/c"])
        #expect(error?.description.contains("ended with 3 problems:") == true)
    }

    @Test("the body's own error wins over the scope's problems")
    func bodyErrorWins() async throws {
        await #expect(throws: BodyError()) {
            try await withStubScope { _ in
                _ = try? await URLSession.stubbed.data(from: URL(string: "https://api.example.com/x")!)
                throw BodyError()
            }
        }
    }

    @Test("withStubScope returns the body's value")
    func returnsTheBodysValue() async throws {
        let value = try await withStubScope { _ in 42 }
        #expect(value == 42)
    }
}
