#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Dispatch
import Foundation
import Testing
import URLStubs

/// Computed responses whose closure does not suspend: Swift picks the synchronous
/// overload of `stub(_:...) { request in ... }`, and the request is answered inside
/// `startLoading()`, in its scope, as a fixed response is.
@Suite("Computed responses answered inline", .timeLimit(.minutes(1)))
struct InlineComputedResponseTests {
    /// What a closure saw while it ran.
    struct Seen: Sendable, Equatable {
        /// Whether it ran on a Swift task.
        var onTask: Bool
        /// The stub scope current while it ran.
        var scope: StubScope?
    }

    /// What the running closure sees.
    static func seen() -> Seen {
        Seen(onTask: withUnsafeCurrentTask { $0 != nil }, scope: StubScope.current)
    }

    @Test("a closure without await is answered inline: on URLSession's thread, with no task, the request's scope current and its path parameters")
    func closureWithoutAwaitRunsInline() async throws {
        let (seen, report) = AsyncStream<Seen>.makeStream()
        try await withStubScope { scope in
            await scope.stub(.get("https://inline.example.com/users/{id}")) { request in
                report.yield(Self.seen())
                return .text("user \(request.pathParameters["id"] ?? "?")")
            }
            let first = try await getText("https://inline.example.com/users/7")
            let second = try await getText("https://inline.example.com/users/8")
            #expect([first, second] == ["user 7", "user 8"])
            var iterator = seen.makeAsyncIterator()
            #expect(await iterator.next() == Seen(onTask: false, scope: scope))
            #expect(await iterator.next() == Seen(onTask: false, scope: scope))
        }
    }

    @Test("a closure with await keeps the asynchronous path: it runs on a task of its own, with the request's scope current")
    func closureWithAwaitRunsOnATask() async throws {
        let (seen, report) = AsyncStream<Seen>.makeStream()
        try await withStubScope { scope in
            await scope.stub(.get("https://inline.example.com/users/{id}")) { request in
                await Task.yield()
                report.yield(Self.seen())
                return .text("user \(request.pathParameters["id"] ?? "?")")
            }
            let text = try await getText("https://inline.example.com/users/7")
            #expect(text == "user 7")
            var iterator = seen.makeAsyncIterator()
            #expect(await iterator.next() == Seen(onTask: true, scope: scope))
        }
    }

    @Test("a closure passed by name takes the form of its type: a synchronous function inline, an async one on a task")
    func namedFunctionsKeepTheirForm() async throws {
        let (seen, report) = AsyncStream<Seen>.makeStream()
        let synchronous: @Sendable (RecordedRequest) throws -> StubResponse = { _ in
            report.yield(Self.seen())
            return .status(204)
        }
        let asynchronous: @Sendable (RecordedRequest) async throws -> StubResponse = { _ in
            report.yield(Self.seen())
            return .status(204)
        }
        try await withStubScope { scope in
            await scope.stub(.get("https://inline.example.com/sync"), respond: synchronous)
            await scope.stub(.get("https://inline.example.com/async"), respond: asynchronous)
            _ = try await getText("https://inline.example.com/sync")
            _ = try await getText("https://inline.example.com/async")
            var iterator = seen.makeAsyncIterator()
            #expect(await iterator.next()?.onTask == false)
            #expect(await iterator.next()?.onTask == true)
        }
    }

    @Test("an inline closure that throws fails the request with that error, and the log says so")
    func throwingClosureFailsTheRequest() async throws {
        struct Refusal: Error, Equatable {}
        try await withStubScope { scope in
            await scope.stub(.get("https://inline.example.com/refuse")) { _ in throw Refusal() }
            let error = await #expect(throws: Refusal.self) {
                try await URLSession.stubbed.data(from: URL(string: "https://inline.example.com/refuse")!)
            }
            #expect(error == Refusal())
            let exchanges = await scope.exchanges
            #expect(exchanges.count == 1)
            guard case let .failure(logged)? = exchanges.first?.outcome else {
                Issue.record("logged as \(String(describing: exchanges.first?.outcome))")
                return
            }
            #expect(logged is Refusal)
        }
    }

    @Test("an inline closure takes a use of its stub (over the limit a request fails and the closure does not run), logs its answer and source, and makes its scenario's move")
    func usesLogsAndScenarios() async throws {
        let (ran, report) = AsyncStream<String>.makeStream()
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                let cart = await scope.scenario("cart", startingIn: "empty")
                let add = await scope.stub(.post("https://inline.example.com/cart"), times: .once, when: cart.is("empty"), then: cart.transition(to: "filled")) { request in
                    report.yield(request.url.path)
                    return .status(201)
                }
                await scope.stub(.get("https://inline.example.com/cart"), with: .text("1 item"), when: cart.is("filled"))
                var post = URLRequest(url: URL(string: "https://inline.example.com/cart")!)
                post.httpMethod = "POST"
                let (_, first) = try await URLSession.stubbed.data(for: post)
                #expect(HTTPURLResponse.status(of: first) == 201)
                let cartText = try await getText("https://inline.example.com/cart")
                #expect(cartText == "1 item")
                // The scenario moved and the stub is used up: this one fails.
                _ = try? await URLSession.stubbed.data(for: post)
                report.finish()
                var paths: [String] = []
                for await path in ran {
                    paths.append(path)
                }
                #expect(paths == ["/cart"])
                let exchanges = await scope.exchanges
                #expect(exchanges.map(ExchangeLogTests.summary) == ["/cart 201 ", "/cart 200 1 item", "/cart failed \(URLError.Code.resourceUnavailable.rawValue)"])
                #expect(exchanges.first?.source == .stub(add.location))
            }
        }
        // The third request is the only problem: it matched no stub.
        #expect(error?.problems.count == 1)
    }

    @Test("a delayed response from an inline closure is waited out before it is delivered")
    func delayedResponseIsWaitedOut() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get("https://inline.example.com/slow")) { _ in .text("late").delayed(by: .seconds(5)) }
            let pending = Task { try await getText("https://inline.example.com/slow") }
            try await clock.waitForSleepers(atLeast: 1)
            #expect(await scope.exchanges.map(ExchangeLogTests.summary) == ["/slow waiting"])
            await clock.advance(by: .seconds(5))
            let text = try await pending.value
            #expect(text == "late")
        }
    }

    @Test("a sequence a closure returns answers with its first response, played as a fixed stub's: its delay waited out, its stream played to the end", arguments: [false, true])
    func sequenceFromClosure(awaiting: Bool) async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            let delayed: StubResponse = .sequence([.text("late").delayed(by: .seconds(5)), .text("never")])
            let streamed: StubResponse = .sequence([.chunks([Data("a".utf8), Data("b".utf8)])])
            if awaiting {
                await scope.stub(.get("https://inline.example.com/slow")) { _ in
                    await Task.yield()
                    return delayed
                }
                await scope.stub(.get("https://inline.example.com/stream")) { _ in
                    await Task.yield()
                    return streamed
                }
            } else {
                await scope.stub(.get("https://inline.example.com/slow")) { _ in delayed }
                await scope.stub(.get("https://inline.example.com/stream")) { _ in streamed }
            }
            #expect(try await getText("https://inline.example.com/stream") == "ab")
            let pending = Task { try await getText("https://inline.example.com/slow") }
            try await clock.waitForSleepers(atLeast: 1)
            #expect(await scope.exchanges.map(ExchangeLogTests.summary).last == "/slow waiting")
            await clock.advance(by: .seconds(5))
            #expect(try await pending.value == "late")
        }
    }

    @Test("seeded latency adds to the delay of the first response of a sequence a closure returns, as it does for a fixed stub")
    func latencyAddsToASequencesFirstResponse() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.injectLatency(.fixed(.seconds(2)), for: .get("https://inline.example.com/slow"))
            await scope.stub(.get("https://inline.example.com/slow")) { _ in .sequence([.text("late").delayed(by: .seconds(1))]) }
            let pending = Task { try await getText("https://inline.example.com/slow") }
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .milliseconds(2_999))
            #expect(clock.sleeperCount == 1)
            await clock.advance(by: .milliseconds(1))
            #expect(try await pending.value == "late")
            #expect(await scope.exchanges.first?.endedAt == .seconds(3))
        }
    }

    @Test("seeded faults treat an inline closure as any stub: latency delays its answer, and an injected fault answers instead of it")
    func seededFaults() async throws {
        let (ran, report) = AsyncStream<String>.makeStream()
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.injectLatency(.fixed(.seconds(2)), for: .get("https://inline.example.com/slow"))
            await scope.injectFaults(.get("https://inline.example.com/down"), rate: 1, faults: [.error(.notConnectedToInternet)])
            await scope.stub(.get("https://inline.example.com/{name}")) { request in
                report.yield(request.url.path)
                return .text("computed")
            }
            let pending = Task { try await getText("https://inline.example.com/slow") }
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .seconds(2))
            let text = try await pending.value
            #expect(text == "computed")
            let error = await #expect(throws: URLError.self) { try await getText("https://inline.example.com/down") }
            #expect(error?.code == .notConnectedToInternet)
            report.finish()
            var paths: [String] = []
            for await path in ran {
                paths.append(path)
            }
            #expect(paths == ["/slow"])
        }
    }

    @Test("a scope that ends while an inline closure runs fails the request, inside startLoading(), and drops the closure's answer")
    func scopeEndWhileClosureRuns() async throws {
        // A driver of its own: the closure blocks its client thread, and no
        // thread of URLSession's or of the cooperative pool.
        let driver = CFNetworkLikeDriver()
        defer { driver.close() }
        let release = DispatchSemaphore(value: 0)
        let (entered, signal) = AsyncStream<Void>.makeStream()
        let load = driver.makeTask(URLRequest(url: URL(string: "https://inline.example.com/blocked")!))
        let loading = try await withStubScope { scope in
            await scope.stub(.get("https://inline.example.com/blocked")) { _ in
                signal.yield()
                release.wait()
                return .text("too late")
            }
            let loading = Task { await driver.resume(load) }
            var iterator = entered.makeAsyncIterator()
            await iterator.next()
            return loading
        }
        // The scope has ended; only now does the closure return.
        release.signal()
        await loading.value
        #expect(load.client.calls == [
            RecordingClient.Call(name: "fail \(URLError.Code.resourceUnavailable.rawValue)", onClientThread: true, insideStartLoading: true),
        ])
        #expect(load.client.text == "")
    }
}
