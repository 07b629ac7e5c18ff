#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubsTesting

/// The `.stubbed(cassette:)` trait, replaying cassettes committed next to this file
/// (`Cassettes/TraitCassetteTests/<test>.har` and `Cassettes/shared-config.har`).
@Suite("The .stubbed(cassette:) trait", .timeLimit(.minutes(1)))
struct TraitCassetteTests {
    @Test("a test case replays the cassette named after it, next to its file", .stubbed(cassette: .perTestCase))
    func replaysItsOwnCassette() async throws {
        let user = try await UserClient(baseURL: URL(string: "https://cassette.example.com")!).user(id: 1)
        #expect(user == UserClient.User(id: 1, name: "Ann"))
        let exchanges = await StubScope.currentTest().exchanges
        #expect(exchanges.map(\.source) == [.cassette(Self.cassettes.appendingPathComponent("TraitCassetteTests/replaysItsOwnCassette.har"))])
    }

    @Test("a named cassette is Cassettes/<name>.har, and the trait's baseline stubs win over it", .stubbed(cassette: "shared-config") { scope in
        await scope.stub(.get("https://cassette.example.com/flags"), with: .text("baseline"))
    })
    func namedCassette() async throws {
        #expect(try await getText("https://cassette.example.com/config") == #"{"theme":"dark","x":1}"#)
        #expect(try await getText("https://cassette.example.com/flags") == "baseline")
    }

    @Test("a cassette named with its .har extension is that file, not <name>.har.har", .stubbed(cassette: "shared-config.har"))
    func namedWithExtension() async throws {
        #expect(try await getText("https://cassette.example.com/config") == #"{"theme":"dark","x":1}"#)
        let exchanges = await StubScope.currentTest().exchanges
        #expect(exchanges.map(\.source) == [.cassette(Self.cassettes.appendingPathComponent("shared-config.har"))])
    }

    @Test("the trait takes matching rules: a JSON-RPC call with another id replays, answered with its own id", .stubbed(cassette: "jsonrpc-trait", matching: .jsonRPC))
    func matchingRules() async throws {
        var request = URLRequest(url: URL(string: "https://rpc.example.com/mcp")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"jsonrpc":"2.0","id":4242,"method":"ping"}"#.utf8)
        let (data, _) = try await URLSession.stubbed.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == #"{"id":4242,"jsonrpc":"2.0","result":{}}"#)
    }

    @Test("a parameterized test's cases cannot share a cassette per test case: the trait refuses them, saying why, and the test does not run", arguments: [1, 2])
    func parameterizedIsRefused(argument: Int) async throws {
        let trait: StubbedTrait = .stubbed(cassette: .perTestCase)
        let test = try #require(Test.current)
        let ran = Shared(false)
        let error = await #expect(throws: (any Error).self) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) { ran.value = true }
        }
        #expect(error.map { String(describing: $0) } == "URLStubs: \(test.name) is parameterized, and its cases would share one cassette file. Call withStubScope(cassette:) inside the test with a file per argument.")
        #expect(!ran.value)
    }

    static let cassettes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Cassettes", isDirectory: true)
}
