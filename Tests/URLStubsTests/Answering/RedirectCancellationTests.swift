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
            .get("https://api.example.com/hop").matching("the window between the hops") { [self] _ in
                action.withLock { work in defer { work = nil }; return work }?()
                return true
            }
        }
    }

    private let first = URL(string: "https://api.example.com/a")!

    /// The redirects before the window: a delayed one (`/a`, produced by a task),
    /// then `between` more answered at once, each to the next letter, the last to
    /// `/b`... to the held hop.
    struct Chain: CustomTestStringConvertible, Sendable {
        let route: Route
        /// Redirects answered at once between the delayed one and the held hop.
        let between: Int

        var testDescription: String { "\(route.rawValue), \(between) redirect(s) answered at once between" }

        /// The paths of the redirects, in order; the held hop's is `/hop`.
        var paths: [String] { ["/a"] + (0..<between).map { "/r\($0)" } }

        static let all = Route.allCases.filter(\.followsRedirects).flatMap { route in [0, 1, 2].map { Chain(route: route, between: $0) } }
    }

    /// Registers the chain's redirects and the held hop's stub.
    private func register(_ chain: Chain, window: Window, in scope: StubScope) async -> (redirects: [Stub], hop: Stub) {
        var redirects: [Stub] = []
        let paths = chain.paths
        for (index, path) in paths.enumerated() {
            let next = index + 1 < paths.count ? paths[index + 1] : "/hop"
            let response = StubResponse.redirect(to: "https://api.example.com" + next)
            redirects.append(await scope.stub(.get("https://api.example.com" + path), with: index == 0 ? response.delayed(by: .seconds(1)) : response))
        }
        return (redirects, await scope.stub(window.pattern, with: .text("the hop")))
    }

    /// Whether the last redirect's exchange, the one in flight when the window
    /// opens, is written down as cancelled.
    private static func lastRedirectIsCancelled(in scope: StubScope, path: String) -> Bool {
        StubRegistry.shared.withIsolation { registry in
            registry.scopes[scope.id]?.log.inOrder.last.map { ExchangeLogTests.summary($0.snapshot) } == path + " cancelled"
        }
    }

    @Test("a cancel between a redirect produced later and the next hop fails the request as cancelled; the redirect then in flight is logged cancelled, the hop never", arguments: Chain.all)
    func cancelBetweenHops(chain: Chain) async throws {
        let clock = ManualClock()
        let window = Window()
        let scope = StubScope.openDetachedScope(name: nil, location: here(), clock: clock)
        let (redirects, target) = await register(chain, window: window, in: scope)
        let request = Task { [first] in try await chain.route.data(from: first, in: scope) }
        let last = chain.paths.last!
        window.onReach {
            request.cancel()
            // URLSession stops the protocol on its own queue, a moment later (the
            // wait is for Foundation's queue, not for a task).
            let deadline = Date(timeIntervalSinceNow: .patience)
            while !Self.lastRedirectIsCancelled(in: scope, path: last), Date() < deadline {
                usleep(1_000)
            }
        }
        try await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(1))
        let error = await #expect(throws: URLError.self) { try await request.value }
        #expect(error?.code == .cancelled)
        for redirect in redirects {
            #expect(await redirect.hitCount == 1)
        }
        #expect(await target.hitCount == 0)
        #expect(inFlightCount(in: scope) == 0)
        let (problems, exchanges) = StubScope.finishDetachedScope(scope)
        #expect(problems.map(\.message) == [])
        #expect(exchanges.map(ExchangeLogTests.summary) == chain.paths.dropLast().map { $0 + " 302 " } + [last + " cancelled"])
    }

    @Test("a scope that ends between a redirect produced later and the next hop fails the request as abandoned and reports it; the hop is never logged", arguments: Chain.all)
    func scopeEndBetweenHops(chain: Chain) async throws {
        let clock = ManualClock()
        let window = Window()
        let scope = StubScope.openDetachedScope(name: nil, location: here(), clock: clock)
        _ = await register(chain, window: window, in: scope)
        let ending = Locked<(problems: [StubProblem], exchanges: [RecordedExchange])?>(nil)
        window.onReach {
            let ended = StubScope.finishDetachedScope(scope)
            ending.withLock { $0 = ended }
        }
        let request = Task { [first] in try await chain.route.data(from: first, in: scope) }
        try await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(1))
        let error = await #expect(throws: URLError.self) { try await request.value }
        let (problems, exchanges) = try #require(ending.withLock { $0 })
        let last = chain.paths.last!
        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.isWarning)
        #expect(problem.message.contains("GET https://api.example.com" + last))
        #expect(error?.localizedDescription == problem.message)
        #expect(exchanges.map(ExchangeLogTests.summary) == chain.paths.dropLast().map { $0 + " 302 " } + [last + " abandoned \(error?.code.rawValue ?? 0)"])
    }
}
