#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

@Suite("Global scope and unscoped requests", .timeLimit(.minutes(1)))
struct GlobalScopeTests {
    @Test("a detached task is answered by a global stub")
    func detachedTaskUsesGlobalStub() async throws {
        let url = "https://global.example.com/detached-\(UUID().uuidString)"
        let stub = await StubScope.global.stub(.get(url), with: .text("from global"))
        defer { Task { await stub.remove() } }
        let body = try await Task.detached {
            String(decoding: try await URLSession.stubbed.data(from: URL(string: url)!).0, as: UTF8.self)
        }.value
        #expect(body == "from global")
        #expect(await stub.hitCount == 1)
    }

    @Test("a request in a scope falls back to a global stub")
    func scopedRequestFallsBackToGlobal() async throws {
        let url = "https://global.example.com/fallback-\(UUID().uuidString)"
        let stub = await StubScope.global.stub(.get(url), with: .text("global"))
        try await withStubScope { scope in
            let (data, _) = try await URLSession.stubbed.data(from: URL(string: url)!)
            #expect(String(decoding: data, as: UTF8.self) == "global")
            #expect(await scope.requests.count == 1)
        }
        await stub.remove()
    }

    /// What an unscoped request for `url` that no global stub is near fails with.
    private static func noScopeMessage(_ url: String) -> String {
        "URLStubs: no stub matches GET \(url): the request reached the stub protocol outside any stub scope, "
            + "and no process-wide stub (StubScope.global) matches it. Either it was resumed outside any scope "
            + "(a Task.detached or a DispatchQueue block does not inherit the scope: make the request from the "
            + "test's task or a child Task, or register it on StubScope.global), or its session's configuration "
            + "has a URL cache (Foundation then creates the protocol on a background queue where the scope is "
            + "not visible: build the session from URLSessionConfiguration.stubbed, which sets urlCache = nil)."
    }

    @Test("an unscoped request with no global match fails with a message naming both possible causes")
    func unscopedRequestFails() async throws {
        let url = "https://nowhere.example.com/\(UUID().uuidString)"
        let error = await Task.detached {
            await #expect(throws: URLError.self) {
                _ = try await URLSession.stubbed.data(from: URL(string: url)!)
            }
        }.value
        #expect(error?.code == .resourceUnavailable)
        #expect(error?.localizedDescription == Self.noScopeMessage(url))
    }

    @Test("an unscoped request with no global match fails before startLoading() returns, on the thread that called it")
    func unscopedRequestFailsAtOnce() async throws {
        let url = "https://nowhere.example.com/\(UUID().uuidString)"
        let driver = CFNetworkLikeDriver.shared
        let load = driver.makeTask(URLRequest(url: URL(string: url)!))
        await Task.detached { await driver.resume(load) }.value
        #expect(load.client.calls == [
            .init(name: "fail \(URLError.Code.resourceUnavailable.rawValue)", onClientThread: true, insideStartLoading: true),
        ])
    }

    @Test("a session with a URL cache: on Linux it loses the scope and fails with the same explanation; on Apple platforms the task carries its scope and is answered")
    func sessionWithCacheLosesTheScope() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        configuration.urlCache = URLCache(memoryCapacity: 1_000_000, diskCapacity: 0, diskPath: nil)
        let session = URLSession(configuration: configuration)
        let url = URL(string: "https://cache.example.com/\(UUID().uuidString)")!
        try await withStubScope { scope in
            await scope.stub(.get(url.absoluteString), with: .text("stubbed"))
            #if canImport(FoundationNetworking)
            // Foundation creates the protocol on a background queue: the scope is lost.
            let error = await #expect(throws: URLError.self) {
                _ = try await session.data(from: url)
            }
            #expect(error?.localizedDescription == Self.noScopeMessage(url.absoluteString))
            // The scope never saw the request, so it has nothing to report.
            #expect(await scope.requests.isEmpty)
            #else
            // The resume hook tags the task itself, whatever the cache.
            let (data, _) = try await session.data(from: url)
            #expect(String(decoding: data, as: UTF8.self) == "stubbed")
            #expect(await scope.requests.count == 1)
            #endif
        }
    }
}
