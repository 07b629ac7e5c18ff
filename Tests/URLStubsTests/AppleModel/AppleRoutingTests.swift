#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// The routing Apple platforms rely on, driven here the way CFNetwork calls a URL
/// protocol: the scope is captured at "resume" and read back from the task on
/// threads where the caller's task-locals are not visible.
@Suite("Routing by task, as on Apple platforms", .timeLimit(.minutes(1)))
struct AppleRoutingTests {
    typealias Loader = CFNetworkLikeDriver.Loader

    @Test("64 parallel scopes loading one URL through the CFNetwork-like driver each get their own body", arguments: Loader.allCases, 0..<64)
    func parallelScopes(loader: Loader, index: Int) async throws {
        let driver = CFNetworkLikeDriver.shared(loader)
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/shared"), with: .text("scope \(index)"))
            let load = driver.makeTask(URLRequest(url: URL(string: "https://api.example.com/shared")!))
            await driver.resume(load)
            await load.client.waitForCalls(3)
            #expect(load.client.text == "scope \(index)")
            #expect(await scope.requests.count == 1)
        }
    }

    @Test("a request resumed in a nested scope sees the enclosing scope's stubs, and its own win", arguments: Loader.allCases)
    func nestedScope(loader: Loader) async throws {
        let driver = CFNetworkLikeDriver.shared(loader)
        try await withStubScope { outer in
            await outer.stub(.get("https://api.example.com/a"), with: .text("outer a"))
            await outer.stub(.get("https://api.example.com/b"), with: .text("outer b"))
            try await withStubScope { inner in
                await inner.stub(.get("https://api.example.com/b"), with: .text("inner b"))
                let a = driver.makeTask(URLRequest(url: URL(string: "https://api.example.com/a")!))
                let b = driver.makeTask(URLRequest(url: URL(string: "https://api.example.com/b")!))
                await driver.resume(a)
                await driver.resume(b)
                #expect(a.client.text == "outer a")
                #expect(b.client.text == "inner b")
            }
        }
    }

    @Test("a task created in one scope and resumed in another belongs to the scope it was resumed in", arguments: Loader.allCases)
    func createdInOneResumedInAnother(loader: Loader) async throws {
        let driver = CFNetworkLikeDriver.shared(loader)
        let load = try await withStubScope { first in
            await first.stub(.get("https://api.example.com/who"), with: .text("first"))
            return driver.makeTask(URLRequest(url: URL(string: "https://api.example.com/who")!))
        }
        try await withStubScope { second in
            await second.stub(.get("https://api.example.com/who"), with: .text("second"))
            await driver.resume(load)
            #expect(load.client.text == "second")
        }
    }

    @Test("a task keeps the scope of its first resume")
    func firstResumeWins() async throws {
        let task = URLSession(configuration: .ephemeral).dataTask(with: URL(string: "https://api.example.com/x")!)
        try await withStubScope { first in
            TaskScopes.shared.tagOnFirstResume(task)
            try await withStubScope { _ in
                TaskScopes.shared.tagOnFirstResume(task)
            }
            #expect(TaskScopes.shared.tag(of: task) == .resumed(.scope(first)))
        }
    }

    @Test("a task resumed outside any scope is tagged as such and answered by global stubs only", arguments: Loader.allCases)
    func unscopedTask(loader: Loader) async throws {
        let driver = CFNetworkLikeDriver.shared(loader)
        let load = driver.makeTask(URLRequest(url: URL(string: "https://api.example.com/nowhere")!))
        await driver.resume(load)
        #expect(TaskScopes.shared.tag(of: load.task) == .resumed(.noScope))
        #expect(load.client.names == ["fail \(URLError.Code.resourceUnavailable.rawValue)"])
    }

    @Test("a body sent as a stream is read once, to its end, and recorded", arguments: Loader.allCases)
    func bodyFromStream(loader: Loader) async throws {
        let driver = CFNetworkLikeDriver.shared(loader)
        try await withStubScope { scope in
            await scope.stub(.post("https://api.example.com/upload"), with: .status(201))
            var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
            request.httpMethod = "POST"
            let payload = Data((0..<100_000).map { UInt8($0 % 251) })
            request.httpBodyStream = InputStream(data: payload)
            let load = driver.makeTask(request)
            await driver.resume(load)
            #expect(load.client.names.first == "response 201")
            #expect(await scope.requests.first?.body == payload)
        }
    }

    @Test("finished tasks' tags are swept as the table grows")
    func tagsAreSwept() async throws {
        let session = URLSession(configuration: .ephemeral)
        for batch in 0..<10 {
            for index in 0..<500 {
                let task = session.dataTask(with: URL(string: "https://api.example.com/\(batch)/\(index)")!)
                TaskScopes.shared.tag(task, with: .noScope)
                task.cancel() // The session lets go of a task once it completes.
            }
            // Wait until the session has let go of the batch (slow under sanitizers).
            while await withCheckedContinuation({ done in session.getAllTasks { done.resume(returning: $0.count) } }) > 0 {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        #expect(TaskScopes.shared.count < 4_096)
    }
}
