// The quick start of README.md and of the DocC article Getting Started, compiled and
// run: the app code and the two tests, each between `// snippet: NAME` and
// `// end snippet`, identical to the documents' blocks (DocumentationExamplesTests).
// The types are named Profile and ProfileClient because this test module has its
// own User and UserClient.

// snippet: quick-start-client
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct Profile: Codable, Equatable { var id: Int; var name: String }

struct ProfileClient {
    var session: URLSession = .shared
    var baseURL = URL(string: "https://api.example.com")!

    func profile(id: Int) async throws -> Profile {
        let (data, _) = try await session.data(from: baseURL.appendingPathComponent("profiles/\(id)"))
        return try JSONDecoder().decode(Profile.self, from: data)
    }

    func create(_ profile: Profile) async throws -> Profile {
        var request = URLRequest(url: baseURL.appendingPathComponent("profiles"))
        request.httpMethod = "POST"
        request.httpBody = try JSONEncoder().encode(profile)
        return try JSONDecoder().decode(Profile.self, from: try await session.data(for: request).0)
    }
}
// end snippet

// snippet: quick-start-tests
import Testing
import URLStubs

@Test func fetchesAProfile() async throws {
    try await withStubScope { scope in
        await scope.stub(.get("https://api.example.com/profiles/1"), with: .json(Profile(id: 1, name: "Ada")))

        let profile = try await ProfileClient(session: .stubbed).profile(id: 1)

        #expect(profile == Profile(id: 1, name: "Ada"))
    }
}

@Test func createsAProfile() async throws {
    try await withStubScope { scope in
        await scope.stub(.post("https://api.example.com/profiles"), with: .json(Profile(id: 2, name: "Lin"), status: 201))

        _ = try await ProfileClient(session: .stubbed).create(Profile(id: 0, name: "Lin"))

        let sent = try await scope.requests.first?.decodeJSON(Profile.self)
        #expect(sent == Profile(id: 0, name: "Lin"))
    }
}
// end snippet
