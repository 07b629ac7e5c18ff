#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Expectations", .timeLimit(.minutes(1)))
struct ExpectationTests {
    /// Runs `body` in a scope and returns the messages of the problems it ended with.
    private func problems(_ body: (StubScope) async throws -> Void) async throws -> [String] {
        do {
            try await withStubScope { try await body($0) }
            return []
        } catch let error as StubVerificationError {
            return error.problems.map(\.message)
        }
    }

    private func status(_ url: String) async -> Int {
        do {
            return HTTPURLResponse.status(of: try await URLSession.stubbed.data(from: URL(string: url)!).1)
        } catch {
            return -1
        }
    }

    @Test("hundreds of racing requests against a times: .once stub: exactly one is answered")
    func onceUnderConcurrency() async throws {
        let answered = Shared(0)
        let messages = try await problems { scope in
            await scope.stub(.get("https://api.example.com/ticket"), with: .status(200), times: .once)
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<300 {
                    group.addTask { await status("https://api.example.com/ticket") }
                }
                for await code in group where code == 200 {
                    answered.value += 1
                }
            }
        }
        #expect(answered.value == 1)
        #expect(messages == ["The stub GET https://api.example.com/ticket expected exactly 1 request but was requested 300 times."])
    }

    @Test("a request over a stub's limit fails naming the stub, its line, its limit and the count, and the stub's expectation is reported at its line", arguments: [
        (StubExpectation.once, 2, "allows 1 request and this is the 2nd", "expected exactly 1 request but was requested 2 times."),
        (.atMost(2), 3, "allows 2 requests and this is the 3rd", "expected at most 2 requests but was requested 3 times."),
        (.exactly(3), 5, "allows 3 requests and this is the 5th", "expected exactly 3 requests but was requested 5 times."),
    ])
    func overLimit(expectation: StubExpectation, made: Int, refusal: String, report: String) async throws {
        let line = #line + 2
        var errors: [String] = []
        let scopeError = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get("https://api.example.com/limited"), with: .status(200), times: expectation)
                for _ in 0..<made {
                    do {
                        _ = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/limited")!)
                    } catch {
                        errors.append(error.localizedDescription)
                    }
                }
            }
        }
        let stub = "GET https://api.example.com/limited (registered at URLStubsTests/ExpectationTests.swift:\(line))"
        #expect(errors.last == "URLStubs: GET https://api.example.com/limited was refused: the stub \(stub) \(refusal); no other stub matches it.")
        #expect(errors.count == made - (expectation.maximum ?? 0))
        #expect(scopeError?.problems.map(\.message) == ["The stub GET https://api.example.com/limited " + report])
        #expect(scopeError?.problems.map { $0.location?.line } == [line])
    }

    @Test("times: .exactly(n) answers n requests, then falls through to older stubs")
    func exactlyFallsThrough() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/x"), with: .text("fallback"))
            await scope.stub(.get("https://api.example.com/x"), with: .text("limited"), times: .exactly(2))
            var bodies: [String] = []
            for _ in 0..<4 { bodies.append(try await getText("https://api.example.com/x")) }
            #expect(bodies == ["limited", "limited", "fallback", "fallback"])
        }
    }

    @Test("unmet expectations are reported with the stub and what was expected", arguments: [
        (StubExpectation.exactly(2), 1, "expected exactly 2 requests but was requested 1 time."),
        (.atLeast(3), 2, "expected at least 3 requests but was requested 2 times."),
        (.once, 0, "expected exactly 1 request but was requested 0 times."),
    ])
    func unmetExpectations(expectation: StubExpectation, made: Int, ending: String) async throws {
        let messages = try await problems { scope in
            await scope.stub(.get("https://api.example.com/e"), with: .status(200), times: expectation)
            for _ in 0..<made { _ = await status("https://api.example.com/e") }
        }
        #expect(messages == ["The stub GET https://api.example.com/e " + ending])
    }

    @Test("met expectations report nothing", arguments: [
        (StubExpectation.exactly(2), 2),
        (.atLeast(1), 5),
        (.atMost(2), 0),
        (.atMost(2), 2),
        (.never, 0),
        (.anyNumber, 0),
    ])
    func metExpectations(expectation: StubExpectation, made: Int) async throws {
        let messages = try await problems { scope in
            await scope.stub(.get("https://api.example.com/e"), with: .status(200), times: expectation)
            for _ in 0..<made { #expect(await status("https://api.example.com/e") == 200) }
        }
        #expect(messages.isEmpty)
    }

    @Test("times: .atMost(n) stops answering after n requests")
    func atMostStops() async throws {
        let messages = try await problems { scope in
            await scope.stub(.get("https://api.example.com/m"), with: .status(200), times: .atMost(2))
            var codes: [Int] = []
            for _ in 0..<3 { codes.append(await status("https://api.example.com/m")) }
            #expect(codes == [200, 200, -1])
        }
        #expect(messages == ["The stub GET https://api.example.com/m expected at most 2 requests but was requested 3 times."])
    }

    @Test("a request matching a times: .never stub fails at once and is reported")
    func neverFailsAndReports() async throws {
        let messages = try await problems { scope in
            await scope.stub(.anyRequest, with: .status(200))
            await scope.stub(.delete("https://api.example.com/users/{id}"), with: .status(204), times: .never)
            var request = URLRequest(url: URL(string: "https://api.example.com/users/3")!)
            request.httpMethod = "DELETE"
            let error = await #expect(throws: URLError.self) { _ = try await URLSession.stubbed.data(for: request) }
            #expect(error?.localizedDescription.contains("matches the stub DELETE https://api.example.com/users/{id}") == true)
            #expect(error?.localizedDescription.contains("which expects no requests") == true)
        }
        #expect(messages == ["The stub DELETE https://api.example.com/users/{id} expected no requests but was requested 1 time."])
    }

    @Test("a stub's hit count and removal")
    func hitCountAndRemoval() async throws {
        try await withStubScope { scope in
            let stub = await scope.stub(.get("https://api.example.com/h"), with: .text("h"))
            _ = try await getText("https://api.example.com/h")
            _ = try await getText("https://api.example.com/h")
            #expect(await stub.hitCount == 2)
            await stub.remove()
            await scope.stub(.anyRequest, with: .text("other"))
            #expect(try await getText("https://api.example.com/h") == "other")
        }
    }

    @Test("a sequence with times: .exactly(n) answers in order and then stops matching")
    func sequenceWithLimit() async throws {
        let messages = try await problems { scope in
            await scope.stub(.get("https://api.example.com/s"), with: .sequence([.status(503), .status(200)]), times: .exactly(2))
            var codes: [Int] = []
            for _ in 0..<3 { codes.append(await status("https://api.example.com/s")) }
            #expect(codes == [503, 200, -1])
        }
        #expect(messages.count == 1)
    }

    @Test("an expectation says its count in words, and eachCancelled adds that every request is cancelled, keeping the count", arguments: [
        (StubExpectation.anyNumber, "any number of requests"),
        (.never, "no requests"),
        (.once, "exactly 1 request"),
        (.atLeast(1).eachCancelled, "at least 1 request, each cancelled by its caller"),
        (.exactly(2).eachCancelled, "exactly 2 requests, each cancelled by its caller"),
    ])
    func expectationsInWords(expectation: StubExpectation, words: String) {
        #expect(expectation.description == words)
    }
}
