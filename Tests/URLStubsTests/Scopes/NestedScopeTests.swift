#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Nested scopes", .timeLimit(.minutes(1)))
struct NestedScopeTests {
    @Test("a nested scope sees its enclosing scope's stubs, and its own stubs win")
    func innerSeesOuterAndWins() async throws {
        try await withStubScope("outer") { outer in
            await outer.stub(.get("https://api.example.com/a"), with: .text("outer a"))
            await outer.stub(.get("https://api.example.com/b"), with: .text("outer b"))
            try await withStubScope("inner") { inner in
                await inner.stub(.get("https://api.example.com/b"), with: .text("inner b"))
                let a = try await text("https://api.example.com/a")
                let b = try await text("https://api.example.com/b")
                #expect(a == "outer a")
                #expect(b == "inner b")
            }
            #expect(try await text("https://api.example.com/b") == "outer b")
        }
    }

    @Test("a request in a nested scope is recorded in the nested scope and the enclosing one")
    func requestsAreRecordedUpTheChain() async throws {
        try await withStubScope { outer in
            await outer.stub(.anyRequest, with: .status(204))
            try await withStubScope { inner in
                _ = try await text("https://api.example.com/inner")
                #expect(await inner.requests.map(\.url.path) == ["/inner"])
            }
            _ = try await text("https://api.example.com/outer")
            #expect(await outer.requests.map(\.url.path) == ["/inner", "/outer"])
        }
    }

    @Test("an unmatched request in a nested scope is reported by the nested scope only")
    func unmatchedIsReportedByTheInnerScope() async throws {
        try await withStubScope { _ in
            let error = await #expect(throws: StubVerificationError.self) {
                try await withStubScope("inner") { _ in
                    _ = try? await text("https://api.example.com/missing")
                }
            }
            #expect(error?.scopeTitle.contains("\"inner\"") == true)
        }
    }

    @Test("a nested scope that outlives its parent still sees the scopes enclosing the parent")
    func outlivedParentKeepsGrandparent() async throws {
        try await withStubScope("outer") { outer in
            await outer.stub(.get("https://api.example.com/from-outer"), with: .text("outer"))
            let (opened, signalOpened) = AsyncStream<Void>.makeStream()
            let (gate, openGate) = AsyncStream<Void>.makeStream()
            let inner = try await withStubScope("middle") { _ in
                let inner = Task {
                    try await withStubScope("inner") { _ in
                        signalOpened.yield()
                        for await _ in gate { break }
                        return try await text("https://api.example.com/from-outer")
                    }
                }
                for await _ in opened { break }
                return inner
            }
            openGate.yield()
            let body = try await inner.value
            #expect(body == "outer")
        }
    }

    private func text(_ url: String) async throws -> String {
        String(decoding: try await URLSession.stubbed.data(from: URL(string: url)!).0, as: UTF8.self)
    }
}
