#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// Bad input at the public entry points: each gets a clear error naming what was
/// wrong, and nothing crashes, hangs or reaches the network. (Malformed templates,
/// impossible statuses, invalid JSON text and missing fixtures are pinned in the
/// matching and response suites.)
@Suite("Bad input", .timeLimit(.minutes(1)))
struct BadInputTests {
    private let url = URL(string: "https://api.example.com/bad")!

    /// The messages of the problems a scope that registers `stub` ends with.
    private func problems(registering stub: @escaping @Sendable (StubScope) async -> Void) async -> [String] {
        do {
            try await withStubScope { await stub($0) }
            return []
        } catch let error as StubVerificationError {
            return error.problems.map(\.message)
        } catch {
            return ["unexpected: \(error)"]
        }
    }

    @Test("a URL pattern with an impossible port, scheme or user is refused with the reason", arguments: [
        ("https://api.example.com:99999/x", #"has an invalid port "99999": a port is a number from 0 to 65535"#),
        ("https://api.example.com:80a/x", #"has an invalid port "80a": a port is a number from 0 to 65535"#),
        ("1https://api.example.com/x", #"has an invalid scheme "1https": a scheme is a letter followed by letters, digits, "+", "-" or ".""#),
        ("https://user@api.example.com/x", "has user information (user@host), which requests do not carry in their URL: drop it, and match an Authorization header instead"),
        ("https://api example.com/x", #"is not a valid URL: its host contains " ""#),
    ])
    func impossiblePatterns(pattern: String, reason: String) async {
        let messages = await problems { await $0.stub(.get(pattern), with: .status(200)) }
        #expect(messages == ["The stub GET \(pattern) cannot be used: \"\(pattern)\" \(reason)."])
    }

    @Test("an empty response sequence and a JSON value that cannot be encoded are refused with the reason")
    func impossibleResponses() async {
        let sequence = await problems { await $0.stub(.get("https://api.example.com/seq"), with: .sequence([])) }
        #expect(sequence == ["The stub GET https://api.example.com/seq was refused: a response sequence needs at least one response."])
        let json = await problems { await $0.stub(.get("https://api.example.com/nan"), with: .json(Double.nan)) }
        #expect(json.count == 1)
        #expect(json.first?.hasPrefix("The stub GET https://api.example.com/nan was refused: the JSON body could not be encoded: ") == true)
    }

    @Test("a request with no URL fails with an error saying so, through URLSession and directly, and nothing is logged or used")
    func requestWithoutURL() async throws {
        try await withStubScope { scope in
            let stub = await scope.stub(.anyRequest, with: .text("never"))
            var request = URLRequest(url: url)
            request.httpMethod = "PUT"
            request.url = nil
            let expected = "URLStubs: a PUT request with no URL cannot be answered; set the request's url before sending it."
            let throughSession = await #expect(throws: URLError.self) { try await URLSession.stubbed.data(for: request) }
            let direct = await #expect(throws: URLError.self) { try await scope.data(for: request) }
            #expect(throughSession?.localizedDescription == expected)
            #expect(direct?.localizedDescription == expected)
            #expect(await scope.requests.isEmpty)
            #expect(await stub.hitCount == 0)
        }
    }

    @Test("a delay too long for Task.sleep waits until the request is cancelled, without crashing", arguments: [Duration.seconds(Int64.max), .seconds(Int64.max / 2) + .milliseconds(1)])
    func enormousDelay(delay: Duration) async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .text("never").delayed(by: delay))
            let throughSession = Task { [url] in try await URLSession.stubbed.data(from: url) }
            let direct = Task { [url] in try await scope.data(from: url) }
            _ = try await scope.waitForRequests(matching: .get(url), count: 2, timeout: .patience)
            throughSession.cancel()
            direct.cancel()
            for task in [throughSession, direct] {
                let error = await #expect(throws: URLError.self) { try await task.value }
                #expect(error?.code == .cancelled)
            }
        }
    }

    @Test("waiting with a negative timeout throws at once, naming the timeout")
    func negativeTimeout() async throws {
        try await withStubScope { scope in
            let error = await #expect(throws: RequestWaitError.self) {
                try await scope.waitForRequest(matching: .get(url), timeout: .seconds(-1))
            }
            #expect(error?.description == "URLStubs: cannot wait for a request matching GET https://api.example.com/bad with a negative timeout (-1.0 seconds); pass .zero to check without waiting.")
        }
    }

    @Test("waiting with a zero timeout returns a request that already arrived, and otherwise times out at once")
    func zeroTimeout() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .status(204))
            let timedOut = await #expect(throws: RequestWaitError.self) {
                try await scope.waitForRequest(matching: .get(url), timeout: .zero)
            }
            #expect(timedOut?.description.hasPrefix("URLStubs: no request matching GET https://api.example.com/bad arrived in scope #") == true)
            _ = try await URLSession.stubbed.data(from: url)
            let arrived = try await scope.waitForRequest(matching: .get(url), timeout: .zero)
            #expect(arrived.url == url)
        }
    }

    @Test("waiting with an enormous timeout ends when the request arrives, without crashing")
    func enormousTimeout() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .status(204))
            async let waited = scope.waitForRequest(matching: .get(url), timeout: .seconds(Int64.max))
            _ = try await URLSession.stubbed.data(from: url)
            #expect(try await waited.url == url)
        }
    }

    @Test("a stub registered on a scope that has ended is ignored: it never answers and its scope stays closed")
    func stubAfterScopeEnded() async throws {
        let ended = try await withStubScope { $0 }
        let stub = await ended.stub(.get(url), with: .text("too late"))
        #expect(await ended.isOpen == false)
        #expect(await stub.hitCount == 0)
        let error = await #expect(throws: URLError.self) { try await ended.data(from: url) }
        #expect(error?.localizedDescription.hasSuffix("which has already ended; a request must finish before the withStubScope body (or the test) that made it returns.") == true)
    }
}
