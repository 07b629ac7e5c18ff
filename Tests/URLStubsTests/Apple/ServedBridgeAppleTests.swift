#if canImport(ObjectiveC)
import Foundation
import Testing
import URLStubs

/// The UI-test bridge on Apple platforms: what an app launched by an XCUITest
/// does with the launch environment a served scope gives it. Run with `swift
/// test` on macOS (type-checked for iOS here).
@Suite("Apple platforms: the served scope's UI-test bridge")
struct ServedBridgeAppleTests {
    @Test("an app reading its launch environment reaches the served scope through a session the test never configured, over IPv4 and IPv6")
    func appReachesServedScope() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/me"), with: .text("Ada"))
            let server = try await scope.serve(as: URL(string: "https://api.example.com")!)
            let environment = server.launchEnvironment()
            #expect(environment == [StubServer.baseURLVariable: server.baseURL.absoluteString])
            let base = APIEnvironment.baseURL(in: environment)
            let session = URLSession(configuration: .ephemeral)
            let (data, response) = try await session.data(from: base.appendingPathComponent("me"))
            #expect(String(decoding: data, as: UTF8.self) == "Ada")
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            if let ipv6 = server.ipv6BaseURL {
                let (data6, _) = try await session.data(from: APIEnvironment.baseURL(in: server.launchEnvironment().mapValues { _ in ipv6.absoluteString }).appendingPathComponent("me"))
                #expect(String(decoding: data6, as: UTF8.self) == "Ada")
            }
            #expect(await scope.requests.count == (server.ipv6BaseURL == nil ? 1 : 2))
        }
    }
}
#endif
