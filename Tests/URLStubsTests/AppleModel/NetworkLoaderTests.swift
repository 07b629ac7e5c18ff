#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

/// Apple's Network.framework loader (`usesClassicLoadingMode = false`) may give the
/// protocol a stand-in for the task that was resumed: its scope is then found
/// through the task's identifier, method and URL, and only when that is certain.
@Suite("Tasks stood in for by the network loader", .timeLimit(.minutes(1)))
struct NetworkLoaderTests {
    /// One session for the suite, alive as long as the process (a session holds
    /// its tasks until it is invalidated): identifiers stay unique across tests.
    private static let session = URLSession(configuration: .ephemeral)

    /// Starts a protocol given `task`, on this thread, and returns its client.
    private func load(_ task: URLSessionTask) -> RecordingClient {
        let client = RecordingClient()
        #if canImport(FoundationNetworking)
        // As CFNetwork creates it: Linux's own init(task:) would record this task's scope.
        let urlProtocol = StubURLProtocol(request: task.originalRequest!, cachedResponse: nil, client: client)
        urlProtocol.task = task
        #else
        let urlProtocol = StubURLProtocol(task: task, cachedResponse: nil, client: client)
        #endif
        urlProtocol.startLoading()
        return client
    }

    #if canImport(FoundationNetworking)
    @Test("a stand-in for a task resumed in a scope is answered by that scope")
    func standInTakesTheScopeOfItsTask() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/nw"), with: .text("from the scope"))
            let task = Self.session.dataTask(with: URL(string: "https://api.example.com/nw")!)
            TaskScopes.shared.tagOnFirstResume(task)
            let client = load(NWURLSessionTaskStandIn(standingFor: task))
            #expect(client.names == ["response 200", "data 14 bytes", "finish"])
            #expect(client.text == "from the scope")
            withExtendedLifetime(task) {}
        }
    }

    @Test("a stand-in whose identifier, method and URL were resumed in two scopes at once is failed, naming the loader and the fix")
    func ambiguousStandInIsRefused() async throws {
        let task = Self.session.dataTask(with: URL(string: "https://api.example.com/twice")!)
        let first = NWURLSessionTaskStandIn(standingFor: task)
        let second = NWURLSessionTaskStandIn(standingFor: task)
        let problems = await StubScope.withNewScope(name: nil, location: here()) { one in
            await one.stub(.get("https://api.example.com/twice"), with: .text("one"))
            TaskScopes.shared.tagOnFirstResume(first)
            _ = await StubScope.withNewScope(name: nil, location: here()) { _ in
                TaskScopes.shared.tagOnFirstResume(second)
            }
            // `second` still lives: its scope ended, but its key is still ambiguous.
            let client = load(NWURLSessionTaskStandIn(standingFor: task))
            return client
        }
        let client = try problems.result.get()
        #expect(client.names == ["fail \(URLError.Code.resourceUnavailable.rawValue)"])
        #expect(client.failureMessage?.contains("tasks with its identifier, method and URL were resumed in different stub scopes at once") == true)
        #expect(client.failureMessage?.contains("usesClassicLoadingMode = true") == true)
        withExtendedLifetime((first, second)) {}
    }

    @Test("a stand-in whose task was never resumed through the hook is failed with a message naming the Network.framework loader and what to do")
    func untaggedStandInNamesTheLoader() {
        let task = Self.session.dataTask(with: URL(string: "https://api.example.com/never-tagged")!)
        let client = load(NWURLSessionTaskStandIn(standingFor: task))
        #expect(client.names == ["fail \(URLError.Code.resourceUnavailable.rawValue)"])
        let message = client.failureMessage ?? ""
        #expect(message.contains("was loaded by Apple's Network.framework URL loader (task class NWURLSessionTaskStandIn"))
        #expect(message.contains("Build the session from URLSessionConfiguration.stubbed or .stubbed(from:), which select the classic loader"))
    }
    #endif

    @Test("a task of the classic loader that was never tagged is failed with a message naming its class, not the network loader")
    func untaggedClassicTaskNamesItsClass() {
        let task = Self.session.dataTask(with: URL(string: "https://api.example.com/classic-untagged")!)
        let client = load(task)
        #expect(client.names == ["fail \(URLError.Code.resourceUnavailable.rawValue)"])
        let message = client.failureMessage ?? ""
        #expect(message.contains("with a task (class \(String(describing: type(of: task)))) that was never resumed through the hooked resume"))
        #expect(!message.contains("Network.framework"))
    }

    @Test("a background configuration made in a scope while configurations are intercepted is a problem of that scope, naming its identifier")
    func backgroundConfigurationIsAProblemOfItsScope() async throws {
        let outcome = await StubScope.withNewScope(name: nil, location: here()) { scope in
            StubRegistry.shared.reportUnstubbable(backgroundIdentifier: "com.example.uploads", on: .scope(scope))
        }
        #expect(outcome.problems.count == 1)
        guard case let .backgroundConfiguration(identifier)? = outcome.problems.first?.kind else {
            Issue.record("expected a background-configuration problem, got \(outcome.problems)")
            return
        }
        #expect(identifier == "com.example.uploads")
        #expect(outcome.problems.first?.message == StubInterceptionError.backgroundConfiguration(identifier: "com.example.uploads").description)
        #expect(outcome.problems.first?.message.hasPrefix("URLStubs: the background session configuration \"com.example.uploads\" cannot be stubbed: background sessions never consult URL protocols") == true)
    }
}
