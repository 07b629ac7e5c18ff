#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs
import URLStubsTesting

/// A scope opened inside a test under the trait, and `currentTest()` where no
/// scope is open (UsingSwiftTesting.md).
@Suite("The trait's scope and the scopes inside it", .timeLimit(.minutes(1)))
struct TraitScopeNestingTests {
    @Test("withStubScope under the trait throws its own problems when it ends, and they are no issue of the test", .stubbed)
    func nestedScopeUnderTheTraitThrowsItsProblems() async throws {
        await StubScope.currentTest().stub(.get("https://api.example.com/trait"), with: .text("trait"))
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { inner in
                await inner.stub(.get("https://api.example.com/once"), with: .status(200), times: .once)
                let text = try await getText("https://api.example.com/trait")
                #expect(text == "trait")
            }
        }
        #expect(error?.problems.count == 1)
        #expect(error?.problems.first?.message.hasPrefix("The stub GET https://api.example.com/once") == true)
    }

    @Test("a stub registered on StubScope.currentTest() where no scope is open answers nothing, in a scope or out of one")
    func currentTestStubsOutsideAScopeAreIgnored() async throws {
        let url = "https://api.example.com/ignored-\(UUID().uuidString)"
        await withKnownIssue {
            await StubScope.currentTest().stub(.get(url), with: .text("should not answer"))
        }
        await #expect(throws: URLError.self) { try await getText(url) }
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { _ in _ = try? await getText(url) }
        }
        #expect(error?.problems.first?.message.contains("no stub matches GET \(url)") == true)
    }
}
