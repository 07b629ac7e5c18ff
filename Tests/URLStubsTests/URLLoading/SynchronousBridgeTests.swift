#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

@Suite("The synchronous bridge", .timeLimit(.minutes(1)))
struct SynchronousBridgeTests {
    typealias Loader = CFNetworkLikeDriver.Loader

    private func request(_ url: String) -> URLRequest {
        URLRequest(url: URL(string: url)!)
    }

    @Test("a fixed answer is delivered before startLoading() returns, on the thread that called it", arguments: Loader.allCases)
    func fixedAnswerIsSynchronous(loader: Loader) async throws {
        let driver = CFNetworkLikeDriver.shared(loader)
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/now"), with: .text("hello"))
            let load = driver.makeTask(request("https://api.example.com/now"))
            await driver.resume(load)
            #expect(load.client.calls == [
                .init(name: "response 200", onClientThread: true, insideStartLoading: true),
                .init(name: "data 5 bytes", onClientThread: true, insideStartLoading: true),
                .init(name: "finish", onClientThread: true, insideStartLoading: true),
            ])
            #expect(load.client.text == "hello")
        }
    }

    @Test("an unmatched request fails before startLoading() returns", arguments: Loader.allCases)
    func unmatchedFailsSynchronously(loader: Loader) async throws {
        let driver = CFNetworkLikeDriver.shared(loader)
        let outcome = await StubScope.withNewScope(name: nil, location: here()) { _ in
            let load = driver.makeTask(request("https://api.example.com/missing"))
            await driver.resume(load)
            return load.client.calls
        }
        let calls = try outcome.result.get()
        #expect(calls == [RecordingClient.Call(name: "fail \(URLError.Code.resourceUnavailable.rawValue)", onClientThread: true, insideStartLoading: true)])
        #expect(outcome.problems.count == 1)
    }

    @Test("a delayed answer arrives after startLoading() returned, on the client thread, in order", arguments: Loader.allCases)
    func delayedAnswerComesBackToTheClientThread(loader: Loader) async throws {
        let driver = CFNetworkLikeDriver.shared(loader)
        // A manual clock: the answer cannot come before the check that nothing came
        // at once, however long a loaded machine holds this task back.
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get("https://api.example.com/later"), with: .text("later").delayed(by: .milliseconds(20)))
            let load = driver.makeTask(request("https://api.example.com/later"))
            await driver.resume(load)
            #expect(load.client.calls.isEmpty)
            try await clock.waitForSleepers(atLeast: 1, timeout: .patience)
            await clock.advance(by: .milliseconds(20))
            await load.client.waitForCalls(3)
            #expect(load.client.calls == [
                .init(name: "response 200", onClientThread: true, insideStartLoading: false),
                .init(name: "data 5 bytes", onClientThread: true, insideStartLoading: false),
                .init(name: "finish", onClientThread: true, insideStartLoading: false),
            ])
        }
    }

    @Test("a computed answer that awaits runs in the request's scope and arrives on the client thread, after startLoading() returned", arguments: Loader.allCases)
    func computedAnswerRunsInTheRequestsScope(loader: Loader) async throws {
        let driver = CFNetworkLikeDriver.shared(loader)
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/computed")) { _ in
                await Task.yield() // The asynchronous form; one without await is answered inline.
                return .text(StubScope.current == scope ? "in scope" : "elsewhere")
            }
            let load = driver.makeTask(request("https://api.example.com/computed"))
            await driver.resume(load)
            await load.client.waitForCalls(3)
            #expect(load.client.text == "in scope")
            #expect(load.client.calls.allSatisfy { $0.onClientThread && !$0.insideStartLoading })
        }
    }

    @Test("a computed answer without await runs in the request's scope and arrives inside startLoading(), on the client thread", arguments: Loader.allCases)
    func inlineComputedAnswerArrivesInsideStartLoading(loader: Loader) async throws {
        let driver = CFNetworkLikeDriver.shared(loader)
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/computed")) { _ in
                .text(StubScope.current == scope ? "in scope" : "elsewhere")
            }
            let load = driver.makeTask(request("https://api.example.com/computed"))
            await driver.resume(load)
            #expect(load.client.text == "in scope")
            #expect(load.client.calls.count == 3)
            #expect(load.client.calls.allSatisfy { $0.onClientThread && $0.insideStartLoading })
        }
    }

    @Test("after a cancel's stopLoading() nothing reaches the client, and the request leaves its scope's in-flight list", arguments: Loader.allCases)
    func nothingAfterCancel(loader: Loader) async throws {
        let driver = CFNetworkLikeDriver.shared(loader)
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get("https://api.example.com/slow"), with: .text("late").delayed(by: .milliseconds(30)))
            let load = driver.makeTask(request("https://api.example.com/slow"))
            await driver.resume(load)
            #expect(inFlightCount(in: scope) == 1)
            // The delay is running when the cancel comes; its time comes after the
            // stop: still nothing reaches the client.
            try await clock.waitForSleepers(atLeast: 1, timeout: .patience)
            load.task.cancel()
            await driver.stop(load)
            await clock.advance(by: .milliseconds(30))
            try await Task.sleep(for: .milliseconds(120))
            #expect(load.client.calls.isEmpty)
            #expect(inFlightCount(in: scope) == 0)
        }
    }

    @Test("a suspended load gets nothing while stopped and its answer when loading starts again", arguments: Loader.allCases)
    func suspendedLoadIsAnsweredOnRestart(loader: Loader) async throws {
        let driver = CFNetworkLikeDriver.shared(loader)
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get("https://api.example.com/paused"), with: .text("resumed").delayed(by: .milliseconds(20)), times: .once)
            let load = driver.makeTask(request("https://api.example.com/paused"))
            await driver.resume(load)
            await driver.stop(load) // The task is not running: a suspend.
            // The answer is produced while the load is stopped (it leaves the
            // scope's in-flight list), and held back.
            try await clock.waitForSleepers(atLeast: 1, timeout: .patience)
            await clock.advance(by: .milliseconds(20))
            try await eventually(checkingEvery: .milliseconds(5)) { inFlightCount(in: scope) == 0 }
            #expect(inFlightCount(in: scope) == 0)
            try await Task.sleep(for: .milliseconds(100))
            #expect(load.client.calls.isEmpty)
            await driver.restart(load)
            await load.client.waitForCalls(3)
            #expect(load.client.text == "resumed")
            #expect(load.client.calls.allSatisfy { $0.onClientThread })
        }
    }

    @Test("a protocol created without a task fails with an error naming the cause, never the network")
    func protocolWithoutTaskFails() async throws {
        let client = RecordingClient()
        let urlProtocol = StubURLProtocol(request: request("https://api.example.com/untagged"), cachedResponse: nil, client: client)
        urlProtocol.startLoading()
        #expect(client.names == ["fail \(URLError.Code.resourceUnavailable.rawValue)"])
    }

    @Test("a request refused before it is resolved is failed once, though loading starts again (a second resume, or a resume after a suspend): Foundation on Linux stops the process on a call for a task it has let go")
    func refusedRequestFailsOnce() async throws {
        let client = RecordingClient()
        let urlProtocol = StubURLProtocol(request: request("https://api.example.com/untagged"), cachedResponse: nil, client: client)
        urlProtocol.startLoading()
        urlProtocol.startLoading()
        urlProtocol.stopLoading()
        urlProtocol.startLoading()
        #expect(client.names == ["fail \(URLError.Code.resourceUnavailable.rawValue)"])
    }

    @Test("a stub with times: .once raced by 64 tasks through one session is used exactly once")
    func onceRacedBy64Tasks() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/once"), with: .text("fallback"))
            let once = await scope.stub(.get("https://api.example.com/once"), with: .text("the one"), times: .once)
            let bodies = await withTaskGroup(of: String.self) { group in
                for _ in 0..<64 {
                    group.addTask { (try? await getText("https://api.example.com/once")) ?? "error" }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(bodies.filter { $0 == "the one" }.count == 1)
            #expect(bodies.filter { $0 == "fallback" }.count == 63)
            #expect(await once.hitCount == 1)
        }
    }
}

/// How many requests of `scope` wait for a delayed or computed answer.
func inFlightCount(in scope: StubScope) -> Int {
    StubRegistry.shared.withIsolation { $0.scopes[scope.id]?.inFlight.count ?? -1 }
}

/// A source location for tests that open scopes through the integration SPI.
func here(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) -> StubSourceLocation {
    StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
}
