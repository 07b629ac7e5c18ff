#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

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

    @Test("an unscoped request with no global match fails fast, naming both possible causes")
    func unscopedRequestFailsFast() async throws {
        let url = URL(string: "https://nowhere.example.com/\(UUID().uuidString)")!
        let started = ContinuousClock.now
        let error = await Task.detached {
            await #expect(throws: URLError.self) {
                _ = try await URLSession.stubbed.data(from: url)
            }
        }.value
        #expect(ContinuousClock.now - started < .seconds(2))
        let message = error?.localizedDescription ?? ""
        #expect(error?.code == .resourceUnavailable)
        #expect(message.contains("GET \(url.absoluteString)"))
        #expect(message.contains("outside any stub scope"))
        #expect(message.contains("Task.detached"))
        #expect(message.contains("URL cache"))
        #expect(message.contains("URLSessionConfiguration.stubbed"))
    }

    @Test("a session with a URL cache loses the scope and fails with the same explanation")
    func sessionWithCacheLosesTheScope() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        configuration.urlCache = URLCache(memoryCapacity: 1_000_000, diskCapacity: 0, diskPath: nil)
        let session = URLSession(configuration: configuration)
        let url = URL(string: "https://cache.example.com/\(UUID().uuidString)")!
        try await withStubScope { scope in
            await scope.stub(.get(url.absoluteString), with: .text("stubbed"))
            let error = await #expect(throws: URLError.self) {
                _ = try await session.data(from: url)
            }
            #expect(error?.localizedDescription.contains("URL cache") == true)
            // The scope never saw the request, so it has nothing to report.
            #expect(await scope.requests.isEmpty)
        }
    }
}
