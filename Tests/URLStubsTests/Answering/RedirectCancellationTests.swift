#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

/// A cancel or a scope's end that comes while a produced redirect leads to its next
/// hop, where URLStubs follows redirects itself (direct answers everywhere,
/// `URLSession` on Linux): the request is still in flight then, so whichever comes
/// decides how it ends, and the hop is never logged or answered.
///
/// The window is where the next hop's stub is chosen: its pattern's predicate,
/// which runs outside the registry's lock before the hop is logged, cancels the
/// request or ends the scope itself, so nothing waits on another task.
@Suite("Redirects: a cancel or a scope's end between two hops", .timeLimit(.minutes(1)))
struct RedirectCancellationTests {
    enum Route: String, CaseIterable, CustomTestStringConvertible {
        case direct = "scope.data(from:)"
        case session = "URLSession.stubbed (Linux, where URLStubs follows the redirect)"

        var testDescription: String { rawValue }

        /// Whether URLStubs follows this route's redirects on this platform.
        var followsRedirects: Bool {
            #if canImport(FoundationNetworking)
            true
            #else
            self == .direct
            #endif
        }

        func data(from url: URL, in scope: StubScope) async throws -> (Data, URLResponse) {
            switch self {
            case .direct: try await scope.data(from: url)
            case .session: try await StubScope.currentBinding.withValue(scope) { try await URLSession.stubbed.data(from: url) }
            }
        }
    }

    /// The hop's stub, whose predicate runs `action` the first time a hop reaches
    /// it: in the window between the redirect and the hop.
    final class Window: Sendable {
        private let action = Locked<(@Sendable () -> Void)?>(nil)

        /// Sets what runs in the window.
        func onReach(_ work: @escaping @Sendable () -> Void) {
            action.withLock { $0 = work }
        }

        var pattern: RequestPattern {
            .get("https://api.example.com/b").matching("the window between the hops") { [self] _ in
                action.withLock { work in defer { work = nil }; return work }?()
                return true
            }
        }
    }

    private let first = URL(string: "https://api.example.com/a")!

    /// Whether the first exchange of `scope`, the redirect's, is written down as
    /// cancelled.
    private static func redirectIsCancelled(in scope: StubScope) -> Bool {
        StubRegistry.shared.withIsolation { registry in
            registry.scopes[scope.id]?.log.inOrder.first.map { ExchangeLogTests.summary($0.snapshot) } == "/a cancelled"
        }
    }

    @Test("a cancel between a delayed redirect and its hop fails the request as cancelled; the redirect is logged cancelled, the hop never", arguments: Route.allCases.filter(\.followsRedirects))
    func cancelBetweenHops(route: Route) async throws {
        let clock = ManualClock()
        let window = Window()
        let scope = StubScope.openDetachedScope(name: nil, location: here(), clock: clock)
        let redirect = await scope.stub(.get(first), with: .redirect(to: "https://api.example.com/b").delayed(by: .seconds(1)))
        let target = await scope.stub(window.pattern, with: .text("the hop"))
        let request = Task { [first] in try await route.data(from: first, in: scope) }
        window.onReach {
            request.cancel()
            // URLSession stops the protocol on its own queue, a moment later (the
            // wait is for Foundation's queue, not for a task).
            let deadline = Date(timeIntervalSinceNow: 20)
            while !Self.redirectIsCancelled(in: scope), Date() < deadline {
                usleep(1_000)
            }
        }
        try await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(1))
        let error = await #expect(throws: URLError.self) { try await request.value }
        #expect(error?.code == .cancelled)
        #expect(await redirect.hitCount == 1)
        #expect(await target.hitCount == 0)
        #expect(inFlightCount(in: scope) == 0)
        let (problems, exchanges) = StubScope.finishDetachedScope(scope)
        #expect(problems.map(\.message) == [])
        #expect(exchanges.map(ExchangeLogTests.summary) == ["/a cancelled"])
    }

    @Test("a scope that ends between a delayed redirect and its hop fails the request as abandoned and reports it; the hop is never logged", arguments: Route.allCases.filter(\.followsRedirects))
    func scopeEndBetweenHops(route: Route) async throws {
        let clock = ManualClock()
        let window = Window()
        let scope = StubScope.openDetachedScope(name: nil, location: here(), clock: clock)
        await scope.stub(.get(first), with: .redirect(to: "https://api.example.com/b").delayed(by: .seconds(1)))
        await scope.stub(window.pattern, with: .text("the hop"))
        let ending = Locked<(problems: [StubProblem], exchanges: [RecordedExchange])?>(nil)
        window.onReach {
            let ended = StubScope.finishDetachedScope(scope)
            ending.withLock { $0 = ended }
        }
        let request = Task { [first] in try await route.data(from: first, in: scope) }
        try await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(1))
        let error = await #expect(throws: URLError.self) { try await request.value }
        let (problems, exchanges) = try #require(ending.withLock { $0 })
        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.isWarning)
        #expect(problem.message.contains("GET https://api.example.com/a"))
        #expect(error?.localizedDescription == problem.message)
        #expect(exchanges.map(ExchangeLogTests.summary) == ["/a abandoned \(error?.code.rawValue ?? 0)"])
    }
}
