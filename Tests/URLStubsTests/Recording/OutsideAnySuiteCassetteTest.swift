#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubsTesting

/// A test outside any suite, whose cassette per test case is named after this
/// file: `Cassettes/OutsideAnySuiteCassetteTest/replaysItsFilesCassette.har`.
@Test("a test outside any suite replays Cassettes/<its file's name>/<test>.har, next to its file", .stubbed(cassette: .perTestCase))
func replaysItsFilesCassette() async throws {
    let user = try await UserClient(baseURL: URL(string: "https://cassette.example.com")!).user(id: 1)
    #expect(user == UserClient.User(id: 1, name: "Ann"))
    let exchanges = await StubScope.currentTest().exchanges
    let file = TraitCassetteTests.cassettes.appendingPathComponent("OutsideAnySuiteCassetteTest/replaysItsFilesCassette.har")
    #expect(exchanges.map(\.source) == [.cassette(file)])
}
