#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Responses", .timeLimit(.minutes(1)))
struct ResponseTests {
    struct Teapot: Error, Equatable {}

    private func fetch(_ url: String, method: String = "GET") async throws -> (String, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        let (data, response) = try await URLSession.stubbed.data(for: request)
        return (String(decoding: data, as: UTF8.self), try #require(response as? HTTPURLResponse))
    }

    @Test("text, status and header fields are delivered as registered")
    func textStatusAndHeaders() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/t"), with: .text("hello", status: 418, headers: ["X-A": "1"]))
            let (body, response) = try await fetch("https://api.example.com/t")
            #expect(body == "hello")
            #expect(response.statusCode == 418)
            #expect(response.value(forHTTPHeaderField: "X-A") == "1")
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
            #expect(response.value(forHTTPHeaderField: "Content-Length") == "5")
        }
    }

    @Test("a raw JSON string is sent as it is, and invalid JSON text is refused, reported at the line that registered it")
    func rawJSON() async throws {
        let line = Shared(0)
        // Not inside #expect(throws:): #line in a macro's closure is not the source line.
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get("https://api.example.com/raw"), with: .json(#"{"id": 1}"#))
                let (body, _) = try await fetch("https://api.example.com/raw")
                #expect(body == #"{"id": 1}"#)
                line.value = #line + 1
                await scope.stub(.get("https://api.example.com/broken"), with: .json(#"{"id": "#))
                let failure = await thrownError(URLError.self) { _ = try await fetch("https://api.example.com/broken") }
                #expect(failure?.localizedDescription.contains("is not valid JSON") == true)
            }
        }
        #expect(error?.problems.count == 1)
        #expect(error?.problems.first?.message.hasPrefix("The stub GET https://api.example.com/broken was refused: the JSON text is not valid JSON") == true)
        #expect(error?.problems.first?.location?.fileID == "URLStubsTests/ResponseTests.swift")
        #expect(error?.problems.first?.location?.line == line.value)
    }

    @Test("a 3xx response with a Location is followed; one without a Location is delivered as it is")
    func redirectStatusWithoutLocation() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/old"), with: .status(301, headers: ["Location": "https://api.example.com/new"]))
            await scope.stub(.get("https://api.example.com/new"), with: .status(300, headers: ["Location": "https://api.example.com/choices"]))
            let (_, response) = try await fetch("https://api.example.com/old")
            #expect(response.statusCode == 300)
            #expect(response.value(forHTTPHeaderField: "Location") == "https://api.example.com/choices")
            #expect(response.url?.absoluteString == "https://api.example.com/new")
        }
    }

    @Test("a 401 with WWW-Authenticate is refused when registered instead of hanging the request")
    func unauthorizedWithChallengeIsRefused() async throws {
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get("https://api.example.com/secret"), with: .status(401, headers: ["WWW-Authenticate": "Basic realm=x"]))
                let failure = await thrownError(URLError.self) { _ = try await fetch("https://api.example.com/secret") }
                #expect(failure?.localizedDescription.contains("WWW-Authenticate") == true)
            }
        }
        #expect(error?.problems.first?.message.contains("a 401 response with a WWW-Authenticate header cannot be stubbed") == true)
    }

    @Test("a 401 without a challenge is delivered")
    func unauthorizedWithoutChallenge() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/secret"), with: .text("no", status: 401))
            let (body, response) = try await fetch("https://api.example.com/secret")
            #expect(response.statusCode == 401)
            #expect(body == "no")
        }
    }

    @Test("an impossible status is refused with the reason", arguments: [0, 99, 100, 600, -1])
    func invalidStatusIsRefused(status: Int) async throws {
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get("https://api.example.com/s"), with: .status(status))
                _ = try? await fetch("https://api.example.com/s")
            }
        }
        #expect(error?.problems.first?.message.contains("status \(status) is not a final HTTP status") == true)
    }

    @Test("error stubs fail the request with that URLError code or that error", arguments: [URLError.Code.timedOut, .notConnectedToInternet, .networkConnectionLost])
    func urlErrorStubs(code: URLError.Code) async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/e"), with: .failure(code))
            let error = await #expect(throws: URLError.self) { try await fetch("https://api.example.com/e") }
            #expect(error?.code == code)
        }
    }

    @Test("any Error can be the failure")
    func customErrorStub() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/e"), with: .failure(Teapot()))
            await #expect(throws: Teapot()) { try await fetch("https://api.example.com/e") }
        }
    }

    @Test("a HEAD request gets the headers and no body")
    func headHasNoBody() async throws {
        try await withStubScope { scope in
            await scope.stub(.head("https://api.example.com/h"), with: .text("ignored"))
            let (body, response) = try await fetch("https://api.example.com/h", method: "HEAD")
            #expect(body.isEmpty)
            #expect(response.value(forHTTPHeaderField: "Content-Length") == "7")
        }
    }

    @Test("a sequence answers in order and then repeats its last response")
    func sequenceRepeatsTheLast() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/poll"), with: .sequence([.text("one"), .text("two", status: 202), .text("three")]))
            var seen: [String] = []
            for _ in 0..<5 {
                let (body, _) = try await fetch("https://api.example.com/poll")
                seen.append(body)
            }
            #expect(seen == ["one", "two", "three", "three", "three"])
        }
    }

    @Test("a delayed response arrives after at least its delay")
    func delayedResponse() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/d"), with: .text("late").delayed(by: .milliseconds(80)))
            let started = ContinuousClock.now
            let (body, _) = try await fetch("https://api.example.com/d")
            #expect(body == "late")
            #expect(ContinuousClock.now - started >= .milliseconds(80))
        }
    }

    @Test("a computed response sees the request and its path parameters")
    func computedResponse() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/users/{id}")) { request in
                .json(UserClient.User(id: Int(request.pathParameters["id"] ?? "") ?? -1, name: request.header("X-Name") ?? "?"))
            }
            var request = URLRequest(url: URL(string: "https://api.example.com/users/41")!)
            request.setValue("Ken", forHTTPHeaderField: "X-Name")
            let (data, _) = try await URLSession.stubbed.data(for: request)
            #expect(try JSONDecoder().decode(UserClient.User.self, from: data) == UserClient.User(id: 41, name: "Ken"))
        }
    }

    @Test("a computed response that throws fails the request with that error")
    func computedResponseThrows() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/x")) { _ in throw Teapot() }
            await #expect(throws: Teapot()) { try await fetch("https://api.example.com/x") }
        }
    }

    @Test("a fixture file is served with a content type from its extension, and a missing one is refused")
    func fixtures() async throws {
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get("https://api.example.com/f"), with: .fixture(named: "user.json", in: .module))
                let (body, response) = try await fetch("https://api.example.com/f")
                #expect(try JSONDecoder().decode(UserClient.User.self, from: Data(body.utf8)) == UserClient.User(id: 7, name: "Fixture"))
                #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
                await scope.stub(.get("https://api.example.com/g"), with: .fixture(named: "missing.json", in: .module))
            }
        }
        #expect(error?.problems.first?.message.contains("no fixture named \"missing.json\"") == true)
    }
}
