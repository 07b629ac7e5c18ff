#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

/// Which scope's stub answers when several scopes have one that matches
/// (StubbingRequests.md).
@Suite("Scope precedence: a scope's own stubs first, the global scope last", .timeLimit(.minutes(1)))
struct ScopePrecedenceTests {
    @Test("a scope's own stub, and an enclosing scope's, win over a global stub registered after them")
    func scopeStubsWinOverGlobal() async throws {
        let url = "https://global.example.com/both-\(UUID().uuidString)"
        let global = Locked<Stub?>(nil)
        try await withStubScope { outer in
            await outer.stub(.get(url), with: .text("outer"))
            let registered = await StubScope.global.stub(.get(url), with: .text("global")) // registered last
            global.withLock { $0 = registered }
            #expect(try await getText(url) == "outer")
            try await withStubScope { inner in
                let before = try await getText(url)
                await inner.stub(.get(url), with: .text("inner"))
                let after = try await getText(url)
                #expect(before == "outer")
                #expect(after == "inner")
            }
        }
        let stub = try #require(global.withLock { $0 })
        #expect(await stub.hitCount == 0)
        await stub.remove()
    }
}
