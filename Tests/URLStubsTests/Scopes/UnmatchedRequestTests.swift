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

    /// A client that wraps every failure in its own error, losing the URLError's message.
    struct ClientFailed: Error, Equatable {}

    @Test("when the body throws its own error (a client wrapping the unmatched request's URLError), the scope's problems and near misses are thrown with it")
    func bodyErrorKeepsTheProblems() async throws {
        let line = #line + 2
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get("https://api.example.com/users/1"), with: .status(200))
                do {
                    _ = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/users/2")!)
                } catch {
                    throw ClientFailed()
                }
            }
        }
        #expect(error?.bodyError as? ClientFailed == ClientFailed())
        #expect(error?.problems.count == 1)
        let description = error?.description ?? ""
        #expect(description.hasPrefix("URLStubs: the body of scope #") == true)
        #expect(description.contains("(opened at URLStubsTests/UnmatchedRequestTests.swift:\(line)) threw URLStubsTests.UnmatchedRequestTests.ClientFailed(), and the scope ended with 1 problem, which may be why:\n1. URLStubs: no stub matches GET https://api.example.com/users/2"))
        #expect(description.contains("GET https://api.example.com/users/1"), "the near miss is named")
    }

    @Test("a body error with no problem in an unseeded scope is rethrown as it is; a cancel is rethrown as it is even in a seeded scope")
    func bodyErrorAlone() async throws {
        await #expect(throws: BodyError()) {
            try await withStubScope { _ in throw BodyError() }
        }
        await #expect(throws: CancellationError.self) {
            try await withStubScope { scope in
                await scope.injectFaults(rate: 0, seed: 5)
                throw CancellationError()
            }
        }
    }

    @Test("the URLError of the one unmatched request escaping the body is rethrown as it is: its message is the problem")
    func unmatchedURLErrorEscapes() async throws {
        let error = await #expect(throws: URLError.self) {
            try await withStubScope { _ in
                _ = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/x")!)
            }
        }
        #expect(error?.localizedDescription.hasPrefix("URLStubs: no stub matches GET https://api.example.com/x") == true)
    }

    @Test("withStubScope returns the body's value")
    func returnsTheBodysValue() async throws {
        let value = try await withStubScope { _ in 42 }
        #expect(value == 42)
    }
}
