#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs
import URLStubsTesting
import XCTest

// The "after" code of Documentation/ComingFrom.md, compiled and run. Each snippet
// sits between `// snippet: NAME` and `// end snippet` and must stay identical to
// the guide's block of the same name: `ComingFromGuideTests` checks it.

// MARK: - The app code the snippets test

/// A user as the example API returns it.
struct GuideUser: Codable, Equatable, Sendable {
    var id: Int
    var name: String
}

/// The transport protocol of the first approach, declared by the app.
protocol HTTPClient: Sendable {
    func data(for request: URLRequest) async throws -> (Data, URLResponse)
}

/// Loads users through whatever `HTTPClient` it is given.
struct UserService {
    let client: any HTTPClient

    func user(id: Int) async throws -> GuideUser {
        let url = URL(string: "https://api.example.com/users/\(id)")!
        let (data, response) = try await client.data(for: URLRequest(url: url))
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        return try JSONDecoder().decode(GuideUser.self, from: data)
    }
}

/// A transport protocol whose method is named differently from `URLSession`'s.
protocol Transport: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, URLResponse)
}

/// Loads users through a closure, as code built on `(URLRequest) async throws ->
/// (Data, URLResponse)` dependencies does.
struct UserLoader {
    let send: @Sendable (URLRequest) async throws -> (Data, URLResponse)

    func user(id: Int) async throws -> GuideUser {
        let (data, _) = try await send(URLRequest(url: URL(string: "https://api.example.com/users/\(id)")!))
        return try JSONDecoder().decode(GuideUser.self, from: data)
    }
}

/// Talks to the API through a `URLSession` it is given, with async calls and with
/// completion handlers.
struct APIClient: Sendable {
    let session: URLSession

    func user(id: Int) async throws -> GuideUser {
        let (data, response) = try await session.data(from: URL(string: "https://api.example.com/users/\(id)")!)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        return try JSONDecoder().decode(GuideUser.self, from: data)
    }

    func user(id: Int, completion: @escaping @Sendable (Result<GuideUser, any Error>) -> Void) {
        session.dataTask(with: URL(string: "https://api.example.com/users/\(id)")!) { data, _, error in
            completion(Result {
                if let error { throw error }
                return try JSONDecoder().decode(GuideUser.self, from: data ?? Data())
            })
        }.resume()
    }

    func create(_ user: GuideUser) async throws -> GuideUser {
        var request = URLRequest(url: URL(string: "https://api.example.com/users")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(user)
        let (data, _) = try await session.data(for: request)
        return try JSONDecoder().decode(GuideUser.self, from: data)
    }
}

// MARK: - A protocol the app depends on

// snippet: protocol
extension StubScope: HTTPClient {}

@Test("the service decodes the user it is sent")
func serviceDecodesUser() async throws {
    try await withStubScope { scope in
        await scope.stub(.get("https://api.example.com/users/1"), with: .json(#"{"id": 1, "name": "Ada"}"#))
        let user = try await UserService(client: scope).user(id: 1)
        #expect(user == GuideUser(id: 1, name: "Ada"))
        #expect(await scope.requests.map(\.url.path) == ["/users/1"])
    }
}
// end snippet

// snippet: adapter
extension StubScope: Transport {
    func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await data(for: request)
    }
}
// end snippet

@Test("a three-line adapter makes a scope a transport whose method has another name")
func adapterAnswers() async throws {
    try await withStubScope { scope in
        await scope.stub(.get("https://api.example.com/ping"), with: .text("pong"))
        let transport: any Transport = scope
        let (data, _) = try await transport.send(URLRequest(url: URL(string: "https://api.example.com/ping")!))
        #expect(String(decoding: data, as: UTF8.self) == "pong")
    }
}

// MARK: - A closure the app depends on

// snippet: closure
@Test("the loader asks for the user it was given")
func loaderAsksForUser() async throws {
    try await withStubScope { scope in
        await scope.stub(.get("https://api.example.com/users/{id}")) { request in
            .json(GuideUser(id: Int(request.pathParameters["id"]!)!, name: "Ada"))
        }
        let user = try await UserLoader(send: scope.httpClient).user(id: 7)
        #expect(user.id == 7)
    }
}
// end snippet

// MARK: - A URLSession subclass

// snippet: session-subclass
@Test("completion-handler code gets the stubbed user")
func completionHandlerGetsUser() async throws {
    try await withStubScope { scope in
        await scope.stub(.get("https://api.example.com/users/1"), with: .json(GuideUser(id: 1, name: "Ada")))
        let client = APIClient(session: .stubbed)
        let user = try await withCheckedThrowingContinuation { continuation in
            client.user(id: 1) { continuation.resume(with: $0) }
        }
        #expect(user.name == "Ada")
    }
}
// end snippet

// MARK: - A URLProtocol with static state

// snippet: static-protocol
@Test("a missing user is an error", .stubbed { scope in
    await scope.stub(.get("https://api.example.com/users/404"), with: .status(404))
})
func missingUserIsAnError() async throws {
    await #expect(throws: URLError(.badServerResponse)) {
        try await APIClient(session: .stubbed).user(id: 404)
    }
}
// end snippet

// MARK: - A URLProtocol subclass per test

// snippet: per-test-protocol
@Suite("Users, in parallel", .stubbed)
struct UsersInParallel {
    @Test("Ada is user 1")
    func ada() async throws {
        await StubScope.currentTest().stub(.get("https://api.example.com/users/1"), with: .json(GuideUser(id: 1, name: "Ada")))
        #expect(try await APIClient(session: .stubbed).user(id: 1).name == "Ada")
    }

    @Test("Grace is user 1 too, in this test only")
    func grace() async throws {
        await StubScope.currentTest().stub(.get("https://api.example.com/users/1"), with: .json(GuideUser(id: 1, name: "Grace")))
        #expect(try await APIClient(session: .stubbed).user(id: 1).name == "Grace")
    }
}
// end snippet

// MARK: - OHHTTPStubs

#if canImport(ObjectiveC)
// snippet: ohhttpstubs-shared
final class LegacyUserServiceTests: StubbedTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try StubInterception.interceptSharedSession()          // URLSession.shared
        try StubInterception.interceptDefaultConfigurations()  // sessions made from .default and .ephemeral from now on
    }

    func testLoadsUserThroughTheSharedSession() async throws {
        await stubScope.stub(.host("api.example.com").url(matching: #"/users/\d+$"#), with: .json(GuideUser(id: 1, name: "Ada")))
        let user = try await APIClient(session: .shared).user(id: 1)
        XCTAssertEqual(user.name, "Ada")
    }
}
// end snippet
#endif

// snippet: ohhttpstubs
final class UserServiceTests: StubbedTestCase {
    func testLoadsUser() async throws {
        await stubScope.stub(.get("https://api.example.com/users/1"), with: .json(GuideUser(id: 1, name: "Ada")))
        let user = try await APIClient(session: .stubbed).user(id: 1)
        XCTAssertEqual(user.name, "Ada")
    }

    func testReportsAnOfflineDevice() async throws {
        await stubScope.stub(.get("https://api.example.com/users/1"), with: .failure(.notConnectedToInternet))
        do {
            _ = try await APIClient(session: .stubbed).user(id: 1)
            XCTFail("expected an error")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .notConnectedToInternet)
        }
    }
}
// end snippet

// snippet: ohhttpstubs-conditions
final class ImageTests: StubbedTestCase {
    func testThumbnailsAreImagesButAvatarsAreNot() async throws {
        await stubScope.stub(.pathSuffix("/avatar.jpg"), with: .status(404))
        let image = StubResponse.data(Data([0xFF, 0xD8, 0xFF]), headers: ["Content-Type": "image/jpeg"])
        await stubScope.stub(.fileExtension("jpg").or(.fileExtension("jpeg")).excluding(.pathSuffix("/avatar.jpg")), with: image)
        let (thumbnail, _) = try await URLSession.stubbed.data(from: URL(string: "https://cdn.example.com/t/42.jpeg")!)
        XCTAssertEqual(thumbnail, Data([0xFF, 0xD8, 0xFF]))
        let (_, avatar) = try await URLSession.stubbed.data(from: URL(string: "https://cdn.example.com/u/1/avatar.jpg")!)
        XCTAssertEqual((avatar as? HTTPURLResponse)?.statusCode, 404)
    }
}
// end snippet

// MARK: - Mocker

#if canImport(ObjectiveC)
// snippet: mocker-shared
@Suite("Code that calls URLSession.shared", .stubbed)
struct SharedSessionAvatars {
    init() throws {
        try StubInterception.interceptSharedSession()
    }

    @Test("an avatar is any PNG file, whatever its query")
    func avatar() async throws {
        await StubScope.currentTest().stub(.fileExtension("png"), with: .data(Data([0x89, 0x50, 0x4E, 0x47])))
        let url = URL(string: "https://cdn.example.com/users/1/avatar.png?size=64")!
        let (data, _) = try await URLSession.shared.data(from: url)
        #expect(data == Data([0x89, 0x50, 0x4E, 0x47]))
    }
}
// end snippet
#endif

// snippet: mocker
@Test("creating a user posts it once, as JSON")
func creatingPostsOnce() async throws {
    try await withStubScope { scope in
        let ada = GuideUser(id: 1, name: "Ada")
        await scope.stub(.post("https://api.example.com/users").jsonBody(ada), with: .json(ada, status: 201), times: .once)
        let created = try await APIClient(session: .stubbed).create(ada)
        #expect(created == ada)
        #expect(await scope.requests.first?.header("content-type") == "application/json")
    }
}
// end snippet

// MARK: - Replay

/// The folder of the guide's recordings (the test target's cassette folder, which
/// the package excludes from its resources).
let guideCassettes = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent() // Migration
    .deletingLastPathComponent() // URLStubsTests
    .appendingPathComponent("Recording/Cassettes", isDirectory: true)

// snippet: replay-cassette
@Test("user 42 comes from the recording", .stubbed(cassette: .named("guide-user", in: guideCassettes)))
func userFromRecording() async throws {
    let user = try await APIClient(session: .stubbed).user(id: 42)
    #expect(user == GuideUser(id: 42, name: "Ada"))
}
// end snippet

// snippet: replay-stubs
@Test("any user is Ada, on either version of the API", .stubbed { scope in
    await scope.stub(.url(matching: #"^https://api\.example\.com/(v2/)?users/\d+$"#), with: .json(GuideUser(id: 7, name: "Ada")))
})
func anyUserIsAda() async throws {
    #expect(try await APIClient(session: .stubbed).user(id: 7).name == "Ada")
    let (data, _) = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/v2/users/7")!)
    #expect(try JSONDecoder().decode(GuideUser.self, from: data).name == "Ada")
}
// end snippet

