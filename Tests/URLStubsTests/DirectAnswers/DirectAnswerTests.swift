#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Declared by the test as an app would: the one-line conformance the Direct answers article shows.
protocol NetworkSession: Sendable {
    func data(for request: URLRequest) async throws -> (Data, URLResponse)
}

extension StubScope: NetworkSession {}

/// App code that depends on `NetworkSession`, not on `URLSession`.
private struct GreetingLoader {
    let session: any NetworkSession

    func greeting(for name: String) async throws -> String {
        let url = URL(string: "https://api.example.com/greetings/\(name)")!
        let (data, response) = try await session.data(for: URLRequest(url: url))
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite("Direct answers", .timeLimit(.minutes(1)))
struct DirectAnswerTests {
    private let url = URL(string: "https://api.example.com/users/1")!

    /// How a request is made in the comparisons below.
    private enum Route: CaseIterable {
        case session, direct

        func data(from url: URL, in scope: StubScope) async throws -> (Data, URLResponse) {
            switch self {
            case .session: try await URLSession.stubbed.data(from: url)
            case .direct: try await scope.data(from: url)
            }
        }
    }

    /// The parts of an error both routes must agree on, scope numbers masked.
    private func summary(_ error: (any Error)?) -> String {
        guard let error = error as NSError? else { return "no error" }
        let failingURL = (error.userInfo[NSURLErrorFailingURLErrorKey] as? URL)?.absoluteString ?? "none"
        return "\(error.domain) \(error.code) \(error.localizedDescription.replacing(/scope #\d+/, with: "scope #N")) \(failingURL)"
    }

    @Test("a protocol the app declares is satisfied by a one-line conformance of StubScope")
    func oneLineConformance() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/greetings/{name}")) { request in
                .text("Hello, \(request.pathParameters["name"] ?? "?")!")
            }
            let loader = GreetingLoader(session: scope)
            let greeting = try await loader.greeting(for: "Ada")
            #expect(greeting == "Hello, Ada!")
            #expect(await scope.requests.map(\.url.path) == ["/greetings/Ada"])
        }
    }

    @Test("httpClient answers from its scope even where the scope is not current, and fails clearly once it ended")
    func httpClientKeepsItsScope() async throws {
        let client = try await withStubScope { scope in
            await scope.stub(.get(url), with: .text("from the scope"))
            let client = scope.httpClient
            let (data, _) = try await Task.detached { [url] in
                #expect(StubScope.current == nil)
                return try await client(URLRequest(url: url))
            }.value
            #expect(String(decoding: data, as: UTF8.self) == "from the scope")
            return client
        }
        let error = await #expect(throws: URLError.self) { try await client(URLRequest(url: url)) }
        #expect(error?.code == StubFailure.code)
        #expect(error?.localizedDescription.contains("which has already ended") == true)
    }

    @Test("an upload's body is seen, logged and matched through direct answers on every platform")
    func uploadBodyIsSeen() async throws {
        try await withStubScope { scope in
            await scope.stub(.post(url).body(#"{"name":"Ada"}"#), with: .status(201))
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            let (_, response) = try await scope.upload(for: request, from: Data(#"{"name":"Ada"}"#.utf8))
            #expect(HTTPURLResponse.status(of: response) == 201)
            #expect(await scope.requests.map(\.bodyText) == [#"{"name":"Ada"}"#])
        }
    }

    @Test("a body stream is read as the request's body, as the protocol reads it")
    func bodyStreamIsRead() async throws {
        try await withStubScope { scope in
            await scope.stub(.put(url).body("streamed"), with: .status(204))
            var request = URLRequest(url: url)
            request.httpMethod = "PUT"
            request.httpBodyStream = InputStream(data: Data("streamed".utf8))
            let (data, response) = try await scope.data(for: request)
            #expect(HTTPURLResponse.status(of: response) == 204 && data.isEmpty)
        }
    }

    @Test("64 parallel scopes answering directly see only their own stubs")
    func parallelScopes() async throws {
        let url = self.url
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for index in 0..<64 {
                group.addTask {
                    (try? await withStubScope("direct \(index)") { scope in
                        await scope.stub(.get(url), with: .text("scope \(index)"))
                        var wrong = 0
                        for _ in 0..<5 {
                            let (data, _) = try await scope.data(from: url)
                            if String(decoding: data, as: UTF8.self) != "scope \(index)" { wrong += 1 }
                            await Task.yield()
                        }
                        return wrong
                    }) ?? 100
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test("cancelling the caller fails a delayed answer with the error URLSession gives, and leaves nothing in flight")
    func cancellationAgrees() async throws {
        var summaries: [String] = []
        for route in Route.allCases {
            try await withStubScope { scope in
                await scope.stub(.get(url), with: .text("late").delayed(by: .seconds(30)))
                let task = Task { [url] in try await route.data(from: url, in: scope) }
                _ = try await scope.waitForRequest(matching: .get(url), timeout: .patience)
                #expect(inFlightCount(in: scope) == 1)
                task.cancel()
                let result = await task.result
                #expect((try? result.get()) == nil)
                summaries.append(summary(result.error))
                #expect(inFlightCount(in: scope) == 0)
            }
        }
        #expect(summaries.count == 2 && summaries[0] == summaries[1])
        #expect(summaries.first?.hasPrefix("NSURLErrorDomain \(URLError.Code.cancelled.rawValue) ") == true)
    }

    @Test("a caller cancelled before asking gets URLError(.cancelled), and no request is logged or counted")
    func cancelledBeforeAsking() async throws {
        try await withStubScope { scope in
            let stub = await scope.stub(.get(url), with: .text("unused"))
            let task = Task { [url] in
                withUnsafeCurrentTask { $0?.cancel() }
                return try await scope.data(from: url)
            }
            let error = await #expect(throws: URLError.self) { try await task.value }
            #expect(error?.code == .cancelled)
            #expect(await scope.requests.isEmpty)
            #expect(await stub.hitCount == 0)
        }
    }

    #if canImport(FoundationNetworking)
    @Test("Foundation 6.3 on Linux still sends a URLSession request made from a task cancelled before it asked (the direct route does not): the scope receives it")
    func urlSessionSendsForACancelledTask() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .text("sent"))
            let task = Task { [url] in
                withUnsafeCurrentTask { $0?.cancel() }
                return try await URLSession.stubbed.data(from: url)
            }
            _ = await task.result
            #expect(await scope.requests.count == 1)
        }
    }
    #endif

    @Test("a streamed answer is played on a task of its own, not the caller's")
    func streamPlaysOnATaskOfItsOwn() async throws {
        let closureTask = Locked<Int?>(nil)
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .stream { writer in
                closureTask.withLock { $0 = withUnsafeCurrentTask { $0?.hashValue } }
                try await writer.write("x")
            })
            let caller = try await Task.detached { [url] in
                _ = try await scope.data(from: url)
                return withUnsafeCurrentTask { $0?.hashValue }
            }.value
            #expect(closureTask.withLock { $0 } != nil)
            #expect(closureTask.withLock { $0 } != caller)
        }
    }

    @Test("a request still waiting when its scope ends fails with the message URLSession's gets")
    func scopeEndAgrees() async throws {
        var summaries: [String] = []
        for route in Route.allCases {
            let pending = Locked<Task<(Data, URLResponse), any Error>?>(nil)
            try await withStubScope("ending") { scope in
                await scope.stub(.get(url), with: .text("never").delayed(by: .seconds(30)))
                let task = Task { [url] in try await route.data(from: url, in: scope) }
                pending.withLock { $0 = task }
                _ = try await scope.waitForRequest(matching: .get(url), timeout: .patience)
            }
            let task = try #require(pending.withLock { $0 })
            summaries.append(summary(await task.result.error))
        }
        #expect(summaries.count == 2 && summaries[0] == summaries[1])
        #expect(summaries.first?.contains("was still waiting for its response when scope #N \"ending\"") == true)
    }

    @Test("the global scope answers directly as URLSession answers outside any scope: same answers, same log, same waiters, same unmatched error")
    func globalScopeAgrees() async throws {
        // A host of its own: while registered, this process-wide stub must not show
        // up as a near miss of other tests running in parallel.
        let origin = "https://direct-global-\(UUID().uuidString.lowercased()).invalid"
        let answered = URL(string: "\(origin)/answered")!
        let unmatched = URL(string: "\(origin)/unstubbed")!
        let stub = await StubScope.global.stub(.get(answered)) { _ in
            .text("scope: \(StubScope.current?.description ?? "none")")
        }
        let waiter = Task { try await StubScope.global.waitForRequests(matching: .get(answered), count: 2, timeout: .patience) }
        let throughSession = try? await Task.detached { try await URLSession.stubbed.data(from: answered) }.value
        let direct = try? await Task.detached { try await StubScope.global.data(from: answered) }.value
        let sessionError = await #expect(throws: URLError.self) { try await Task.detached { try await URLSession.stubbed.data(from: unmatched) }.value }
        let directError = await #expect(throws: URLError.self) { try await StubScope.global.data(from: unmatched) }
        let waited = try? await waiter.value
        let hits = await stub.hitCount
        await stub.remove()
        #expect(throughSession.map { String(decoding: $0.0, as: UTF8.self) } == "scope: none")
        #expect(direct.map { String(decoding: $0.0, as: UTF8.self) } == "scope: none")
        #expect(waited?.count == 2)
        #expect(hits == 2)
        #expect(sessionError.map(summary) == directError.map(summary))
        #expect(directError?.localizedDescription.contains("outside any stub scope") == true)
        #expect(await StubScope.global.requests(matching: .get(unmatched)).count == 2)
    }

    @Test("a direct answer runs a computed closure on a task of its own, not the caller's, with the request's scope current")
    func computedClosureRunsOnATaskOfItsOwn() async throws {
        try await withStubScope { scope in
            let seen = Locked<(task: Int?, scope: StubScope?)?>(nil)
            await scope.stub(.get(url)) { _ in
                seen.withLock { $0 = (withUnsafeCurrentTask { $0?.hashValue }, StubScope.current) }
                return .text("computed")
            }
            // Detached: no scope is current where the request is made.
            let (data, caller) = try await Task.detached { [url] in
                (try await scope.data(from: url).0, withUnsafeCurrentTask { $0?.hashValue })
            }.value
            #expect(String(decoding: data, as: UTF8.self) == "computed")
            #expect(seen.withLock { $0?.task } != nil)
            #expect(seen.withLock { $0?.task } != caller) // A closure that waits for the test never blocks the caller.
            #expect(seen.withLock { $0?.scope } == scope)
        }
    }

    @Test("a computed answer runs with its scope current, so requests it makes are answered there")
    func computedAnswerRunsInScope() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/inner"), with: .text("inner"))
            await scope.stub(.get(url)) { _ in
                let (data, _) = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/inner")!)
                return .text("outer+" + String(decoding: data, as: UTF8.self))
            }
            let (data, _) = try await Task.detached { [url] in try await scope.data(from: url) }.value
            #expect(String(decoding: data, as: UTF8.self) == "outer+inner")
        }
    }
}

extension Result {
    /// The failure, or `nil` for a success.
    fileprivate var error: Failure? {
        if case let .failure(error) = self { error } else { nil }
    }
}
