#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// `.fixture(at:)` reads files only, and a request nothing answers is not sent:
/// nothing reaches the network unless a test asks for it.
@Suite("Nothing reaches the network unasked", .timeLimit(.minutes(1)))
struct FixtureSourceTests {
    @Test("a fixture given a URL that is not a file is refused with the reason, and a real server receives nothing", arguments: ["http", "https", "ftp", "data"])
    func nonFileFixtureIsRefused(scheme: String) async throws {
        let server = try LocalServer { _ in .text("downloaded") }
        defer { server.stop() }
        let url: URL
        switch scheme {
        case "http": url = server.url("/fixture.json")
        case "https": url = URL(string: "https://127.0.0.1:\(server.port)/fixture.json")!
        case "ftp": url = URL(string: "ftp://127.0.0.1:\(server.port)/fixture.json")!
        default: url = URL(string: "data:application/json;base64,eyJpZCI6MX0=")!
        }
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get("https://api.example.com/user"), with: .fixture(at: url))
                let failure = await thrownError(URLError.self) { _ = try await getText("https://api.example.com/user") }
                #expect(failure?.localizedDescription.contains("is not a file") == true)
            }
        }
        #expect(error?.problems.map(\.message) == [
            "The stub GET https://api.example.com/user was refused: the fixture at \(url.absoluteString) is not a file: fixtures are read only from file URLs, so that no stub reaches the network (it was not loaded); use passThrough(_:) or a cassette for real traffic.",
        ])
        #expect(server.requests.isEmpty)
    }

    @Test("a request nothing answers fails and is not sent: a real server at its URL receives nothing, in a plain scope and in a replaying one")
    func unansweredIsNotSent() async throws {
        let server = try LocalServer { _ in .text("reached") }
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let cassette = directory.file("empty.har")
        try writeHAR(#"{"log": {"entries": []}}"#, to: cassette)
        let plain = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get(server.url("/other")), with: .text("stub"))
                let failure = await thrownError(URLError.self) { _ = try await URLSession.stubbed.data(from: server.url("/users/1")) }
                #expect(failure?.code == .resourceUnavailable)
            }
        }
        let replaying = await thrownError(StubVerificationError.self) {
            try await withStubScope(cassette: cassette) { _ in
                let failure = await thrownError(URLError.self) { _ = try await URLSession.stubbed.data(from: server.url("/users/1")) }
                #expect(failure?.code == .resourceUnavailable)
            }
        }
        #expect(plain?.problems.count == 1)
        #expect(replaying?.problems.count == 1)
        #expect(server.requests.isEmpty)
    }

    @Test("a fixture given a file URL is still read")
    func fileFixture() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("fixture.json")
        try Data(#"{"id":1}"#.utf8).write(to: file)
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/user"), with: .fixture(at: file))
            let text = try await getText("https://api.example.com/user")
            #expect(text == #"{"id":1}"#)
        }
    }
}
