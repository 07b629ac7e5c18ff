#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Parallel isolation", .timeLimit(.minutes(1)))
struct ParallelIsolationTests {
    static let sharedURL = URL(string: "https://api.example.com/profile")!

    @Test("48 scopes open at the same time, each stubbing one URL, each see only their own body through one shared session")
    func overlappingScopesSeeOnlyTheirOwnStub() async throws {
        let scopes = 48
        let allStubbed = Barrier(parties: scopes)
        let allLoaded = Barrier(parties: scopes)
        let bodies = try await withThrowingTaskGroup(of: (Int, [String], Int).self) { group in
            for index in 0..<scopes {
                group.addTask {
                    try await withStubScope("case \(index)") { scope in
                        await scope.stub(.get(Self.sharedURL.absoluteString), with: .text("body of case \(index)"))
                        // Every scope has its stub before any request is made, and stays
                        // open until every request was answered.
                        await allStubbed.arrive()
                        var seen: [String] = []
                        for _ in 0..<5 {
                            let (data, response) = try await URLSession.stubbed.data(from: Self.sharedURL)
                            seen.append("\(HTTPURLResponse.status(of: response)) \(String(decoding: data, as: UTF8.self))")
                        }
                        await allLoaded.arrive()
                        return (index, seen, await scope.requests.count)
                    }
                }
            }
            return try await group.reduce(into: [Int: ([String], Int)]()) { $0[$1.0] = ($1.1, $1.2) }
        }
        #expect(bodies.count == scopes)
        for index in 0..<scopes {
            #expect(bodies[index]?.0 == Array(repeating: "200 body of case \(index)", count: 5))
            #expect(bodies[index]?.1 == 5)
        }
    }

    @Test("a task created in one scope and resumed in another is answered by the scope it was resumed in, through a real URLSession")
    func taskBelongsToTheScopeItIsResumedIn() async throws {
        let url = URL(string: "https://api.example.com/owner")!
        let (bodies, delivered) = AsyncStream<String>.makeStream()
        let task = try await withStubScope { creator in
            await creator.stub(.get(url.absoluteString), with: .text("creator"))
            return URLSession.stubbed.dataTask(with: url) { data, _, error in
                delivered.yield(data.map { String(decoding: $0, as: UTF8.self) } ?? "error \(String(describing: error))")
            }
        }
        try await withStubScope { resumer in
            await resumer.stub(.get(url.absoluteString), with: .text("resumer"))
            task.resume()
            var iterator = bodies.makeAsyncIterator()
            #expect(await iterator.next() == "resumer")
            #expect(await resumer.requests.map(\.url) == [url])
        }
    }

    @Test("child tasks inherit the scope and its stubs")
    func childTasksInheritTheScope() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/items/{id}"), with: .text("item"))
            let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                for id in 0..<20 {
                    group.addTask {
                        let url = URL(string: "https://api.example.com/items/\(id)")!
                        return String(decoding: try await URLSession.stubbed.data(from: url).0, as: UTF8.self)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(bodies == Array(repeating: "item", count: 20))
            #expect(await scope.requests.map(\.url.path).sorted() == (0..<20).map { "/items/\($0)" }.sorted())
        }
    }

    @Test("a scope's stubs are invisible to a sibling scope open at the same time: the sibling's request is unmatched, and the stub is not used")
    func siblingScopesDoNotShareStubs() async throws {
        let url = "https://api.example.com/only-first"
        let stubbed = Latch()
        let requested = Latch()
        async let first: Int = withStubScope("first") { scope in
            let stub = await scope.stub(.get(url), with: .text("first"))
            stubbed.open()
            await requested.wait() // The sibling asks while this scope and its stub exist.
            return await stub.hitCount
        }
        let failure = Shared<URLError?>(nil)
        let opened = #line + 2
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope("second") { _ in
                await stubbed.wait()
                failure.value = await thrownError(URLError.self) {
                    _ = try await URLSession.stubbed.data(from: URL(string: url)!)
                }
                requested.open()
            }
        }
        #expect(try await first == 0)
        let problems = error?.problems ?? []
        #expect(problems.count == 1)
        guard case let .unmatchedRequest(request, nearMisses)? = problems.first?.kind else {
            Issue.record("expected one unmatched request, got \(problems)")
            return
        }
        #expect(request.description == "GET \(url)")
        #expect(!nearMisses.contains { $0.stub == "GET \(url)" })
        #expect(failure.value?.localizedDescription == problems.first?.message)
        let headline = problems.first.map { masked(String($0.message.prefix { $0 != "\n" })) }
        #expect(headline == "URLStubs: no stub matches GET \(url) in scope #N \"second\" (opened at URLStubsTests/ParallelIsolationTests.swift:\(opened)).")
    }

    @Test("StubScope.current is the innermost open scope, and nil outside any scope")
    func currentScope() async throws {
        #expect(StubScope.current == nil)
        try await withStubScope { outer in
            #expect(StubScope.current == outer)
            try await withStubScope { inner in
                #expect(StubScope.current == inner)
                #expect(inner != outer)
            }
            #expect(StubScope.current == outer)
        }
        #expect(StubScope.current == nil)
    }
}
