#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Parallel isolation", .timeLimit(.minutes(1)))
struct ParallelIsolationTests {
    static let sharedURL = URL(string: "https://api.example.com/profile")!

    @Test("parallel tests stubbing one URL through one shared session each see only their own body", arguments: 0..<48)
    func eachCaseSeesItsOwnStub(index: Int) async throws {
        try await withStubScope("case \(index)") { scope in
            await scope.stub(.get(Self.sharedURL.absoluteString), with: .text("body of case \(index)"))
            for _ in 0..<5 {
                let (data, response) = try await URLSession.stubbed.data(from: Self.sharedURL)
                #expect(String(decoding: data, as: UTF8.self) == "body of case \(index)")
                #expect(HTTPURLResponse.status(of: response) == 200)
                await Task.yield()
            }
            #expect(await scope.requests.count == 5)
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
            #expect(await scope.requests.count == 20)
        }
    }

    @Test("a scope's stubs are invisible to a sibling scope running at the same time")
    func siblingScopesDoNotShareStubs() async throws {
        async let first: Void = withStubScope("first") { scope in
            await scope.stub(.get("https://api.example.com/only-first"), with: .text("first"))
            try await Task.sleep(for: .milliseconds(50))
        }
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope("second") { _ in
                try await Task.sleep(for: .milliseconds(10))
                _ = try? await URLSession.stubbed.data(from: URL(string: "https://api.example.com/only-first")!)
            }
        }
        try await first
        #expect(error?.problems.count == 1)
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
