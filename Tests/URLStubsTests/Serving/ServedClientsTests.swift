#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) import URLStubs

#if os(Linux) || os(macOS)
/// Runs `command` with `/bin/sh` in a child process whose environment is
/// `environment` (added to this process's), and returns what it printed.
func runChild(_ command: String, environment: [String: String]) async throws -> (output: String, status: Int32) {
    try await offThePool {
        Result { () throws -> (String, Int32) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (String(decoding: data, as: UTF8.self), process.terminationStatus)
        }
    }.get()
}

/// Whether `curl` can be run here.
let hasCurl = FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") || FileManager.default.isExecutableFile(atPath: "/bin/curl")
#endif

@Suite("Served scopes: proven with clients nobody here wrote", .timeLimit(.minutes(1)))
struct ServedClientsTests {
    #if os(Linux) || os(macOS)
    @Test("a child process (curl) given the base URL through its environment, as a UI test gives it to its app, gets every answer", .enabled(if: hasCurl))
    func childProcess() async throws {
        let outcome = await StubScope.withNewScope(name: "child", location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)) { scope in
            await scope.stub(.get("https://api.example.com/users/1"), with: .json(#"{"id":1}"#), times: .once)
            await scope.stub(.post("https://api.example.com/echo")) { request in .data(request.body ?? Data(), status: 201) }
            await scope.stub(.get("https://api.example.com/old"), with: .redirect(to: "https://api.example.com/users/1b"))
            await scope.stub(.get("https://api.example.com/users/1b"), with: .text("after redirect"))
            let server = try await scope.serve(as: URL(string: "https://api.example.com")!)

            // Two URLs in one curl: one connection, kept alive.
            let get = try await runChild(#"curl -s -w '|%{http_code}|%{num_connects}' "$URLSTUBS_BASE_URL/users/1" "$URLSTUBS_BASE_URL/old" -L"#, environment: server.launchEnvironment())
            #expect(get.status == 0)
            #expect(get.output == #"{"id":1}|200|1after redirect|200|0"#)

            // A chunked upload announced with Expect: 100-continue.
            let post = try await runChild(#"printf 'hello curl' | curl -s -w '|%{http_code}' -H 'Transfer-Encoding: chunked' -H 'Expect: 100-continue' --data-binary @- "$API/echo""#, environment: server.launchEnvironment("API"))
            #expect(post.output == "hello curl|201")

            // What a UI test's log shows for a request no stub answers.
            let missed = try await runChild(#"curl -s -i "$URLSTUBS_BASE_URL/users/2""#, environment: server.launchEnvironment())
            #expect(missed.output.hasPrefix("HTTP/1.1 599 No Stub Answered (URLStubs)\r\n"))
            #expect(missed.output.contains("X-URLStubs-Failure: URLStubs: no stub matches GET https://api.example.com/users/2 in scope #"))
            #expect(missed.output.contains("GET https://api.example.com/users/1"))
        }
        try outcome.result.get()
        // The request no stub answered is the scope's one problem, as through URLSession.
        #expect(outcome.problems.count == 1)
        guard case let .unmatchedRequest(request, _)? = outcome.problems.first?.kind else {
            Issue.record("expected the unmatched request, got \(outcome.problems)")
            return
        }
        #expect(request.description == "GET https://api.example.com/users/2")
    }
    #endif

    @Test("64 scopes served in parallel, each answering the same paths differently: every client gets its own scope's answers, 0 cross-talk")
    func parallelScopes() async throws {
        let session = plainSession()
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<64 {
                group.addTask {
                    try await withStubScope { scope in
                        await scope.stub(.get("/who"), with: .text("scope \(index)"))
                        await scope.stub(.post("/echo")) { request in .text("scope \(index): " + String(decoding: request.body ?? Data(), as: UTF8.self)) }
                        let server = try await scope.serve()
                        var wrong = 0
                        for round in 0..<4 {
                            let (who, _) = try await session.data(from: server.baseURL.appendingPathComponent("who"))
                            var post = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
                            post.httpMethod = "POST"
                            post.httpBody = Data("round \(round)".utf8)
                            let (echo, _) = try await session.data(for: post)
                            if String(decoding: who, as: UTF8.self) != "scope \(index)" { wrong += 1 }
                            if String(decoding: echo, as: UTF8.self) != "scope \(index): round \(round)" { wrong += 1 }
                        }
                        if await scope.requests.count != 8 { wrong += 1 }
                        return wrong
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test("scenarios, times: expectations verified at the scope's end, and seeded faults work through a served scope")
    func resolutionFeatures() async throws {
        let outcome = await StubScope.withNewScope(name: "features", location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)) { scope in
            let cart = await scope.scenario("cart", startingIn: "empty")
            await scope.stub(.get("/cart"), with: .text("empty"), when: cart.is("empty"))
            await scope.stub(.post("/cart"), with: .status(201), when: cart.is("empty"), then: cart.transition(to: "filled"))
            await scope.stub(.get("/cart"), with: .text("filled"), when: cart.is("filled"))
            await scope.stub(.get("/twice"), with: .text("ok"), times: .exactly(2))
            await scope.stub(.get("/flaky"), with: .text("fine"))
            await scope.injectFaults(.get("/flaky"), rate: 1, faults: [.status(503)], seed: 7)
            let server = try await scope.serve()
            let session = plainSession()
            func get(_ path: String) async throws -> (Int, String) {
                let (data, response) = try await session.data(from: server.baseURL.appendingPathComponent(path))
                return (HTTPURLResponse.status(of: response), String(decoding: data, as: UTF8.self))
            }
            let before = try await get("cart")
            var post = URLRequest(url: server.baseURL.appendingPathComponent("cart"))
            post.httpMethod = "POST"
            _ = try await session.data(for: post)
            let after = try await get("cart")
            let twice = try await get("twice")
            let flaky = try await get("flaky")
            return (before.1, after.1, twice.0, flaky.0)
        }
        let (before, after, twice, flaky) = try outcome.result.get()
        #expect(before == "empty")
        #expect(after == "filled")
        #expect(twice == 200)
        #expect(flaky == 503)
        #expect(outcome.problems.map(\.message).contains { $0.contains("exactly 2 requests") })
        #expect(outcome.problems.count == 1)
    }
}
