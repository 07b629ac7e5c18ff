#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs
import XCTest

// The examples of Documentation/Serving.md, compiled and run. Between each
// `// snippet: NAME` and `// end snippet` is exactly the guide's block NAME
// (ServingGuideDocTests checks it line for line).

// MARK: - A client you cannot configure

/// Code under test that builds its own session: no URL protocol can reach it.
struct WeatherService {
    var baseURL: URL
    func today() async throws -> String {
        let session = URLSession(configuration: .ephemeral)
        let (data, _) = try await session.data(from: baseURL.appendingPathComponent("today"))
        return String(decoding: data, as: UTF8.self)
    }
}

// snippet: served-test
@Test("the service reads today's weather")
func readsTodaysWeather() async throws {
    try await withStubScope { scope in
        await scope.stub(.get("/today"), with: .text("sunny"))
        let server = try await scope.serve()
        let weather = try await WeatherService(baseURL: server.baseURL).today()
        #expect(weather == "sunny")
    }
}
// end snippet

// snippet: served-origin
@Test("stubs written for the real service answer the served scope")
func standsInForTheService() async throws {
    try await withStubScope { scope in
        await scope.stub(.get("https://weather.example.com/today"), with: .text("rain"))
        let server = try await scope.serve(as: URL(string: "https://weather.example.com")!)
        let weather = try await WeatherService(baseURL: server.baseURL).today()
        #expect(weather == "rain")
        #expect(await scope.requests.map(\.url.absoluteString) == ["https://weather.example.com/today"])
    }
}
// end snippet

// MARK: - The UI-test bridge

// snippet: app-side
/// In the app: where its API lives. A UI test sets URLSTUBS_BASE_URL in the
/// app's launch environment; a normal launch has no such variable.
enum APIEnvironment {
    static func baseURL(in environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let served = environment["URLSTUBS_BASE_URL"], let url = URL(string: served) {
            return url
        }
        return URL(string: "https://api.example.com")!
    }
}
// end snippet

/// Stands in for `XCUIApplication`, which only a UI-test bundle on an Apple
/// platform can launch: `launch()` runs what the app does at launch (reads its
/// base URL from its environment and loads the profile through a session of its
/// own, which the test cannot configure) and keeps what it showed.
final class XCUIApplication: @unchecked Sendable {
    // @unchecked: set up before launch(), read after it returns, by one test.
    var launchEnvironment: [String: String] = [:]
    private(set) var shownName: String?

    func launch() {
        let environment = launchEnvironment
        let loaded = DispatchSemaphore(value: 0)
        let name = Shared<String?>(nil)
        let url = APIEnvironment.baseURL(in: environment).appendingPathComponent("me")
        URLSession(configuration: .ephemeral).dataTask(with: url) { data, _, _ in
            name.value = data.map { String(decoding: $0, as: UTF8.self) }
            loaded.signal()
        }.resume()
        loaded.wait()
        shownName = name.value
    }
}

final class ProfileUITests: XCTestCase {
    func testShowsTheStubbedName() async throws {
        let app = XCUIApplication()
        // snippet: ui-test
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/me"), with: .text("Ada"))
            let server = try await scope.serve(as: URL(string: "https://api.example.com")!)
            app.launchEnvironment.merge(server.launchEnvironment()) { _, new in new }
            app.launch()
            // ... drive the app: XCTAssert(app.staticTexts["Ada"].waitForExistence(timeout: 5))
        }
        // end snippet
        XCTAssertEqual(app.shownName, "Ada")
    }
}

@Suite("The serving guide", .timeLimit(.minutes(1)))
struct ServingGuideDocTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Guide
        .deletingLastPathComponent() // Serving
        .deletingLastPathComponent() // URLStubsTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent()

    @Test("every Swift block of Documentation/Serving.md is compiled, identical, in ServingGuideTests.swift")
    func guideMatchesTests() throws {
        let guide = try String(contentsOf: Self.root.appending(path: "Documentation/Serving.md"), encoding: .utf8)
        let source = try String(contentsOf: Self.root.appending(path: "Tests/URLStubsTests/Serving/Guide/ServingGuideTests.swift"), encoding: .utf8)
        let documented = ComingFromGuideTests.guideSnippets(guide)
        let compiled = Self.sourceSnippets(source)
        #expect(documented.keys.sorted() == ["app-side", "served-origin", "served-test", "ui-test"])
        #expect(documented.keys.sorted() == compiled.keys.sorted())
        for (name, code) in documented {
            #expect(code == compiled[name], "the guide's \(name) snippet differs from ServingGuideTests.swift")
        }
        // Every fenced Swift block of the guide is a named, compiled snippet.
        #expect(guide.matches(of: /```swift\n/).count == documented.count)
    }

    /// The snippets of the source, as ComingFromGuideTests reads them, except that
    /// a snippet inside a method may be indented: its indentation is removed.
    static func sourceSnippets(_ text: String) -> [String: String] {
        var snippets: [String: String] = [:]
        for match in text.matches(of: /\/\/ snippet: (\S+)\n((?:.*\n)*?)( *)\/\/ end snippet/) {
            let indent = match.output.3.count
            snippets[String(match.output.1)] = match.output.2
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
                .joined(separator: "\n")
        }
        return snippets
    }

    @Test("the app-side reader takes the served base URL from the environment, and the real one without it")
    func appSideReader() {
        #expect(APIEnvironment.baseURL(in: ["URLSTUBS_BASE_URL": "http://127.0.0.1:4321"]).absoluteString == "http://127.0.0.1:4321")
        #expect(APIEnvironment.baseURL(in: [:]).absoluteString == "https://api.example.com")
        #expect(StubServer.baseURLVariable == "URLSTUBS_BASE_URL")
    }
}
