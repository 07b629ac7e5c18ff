#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// The optional features of a scope attach to it only when it uses them.
@Suite("Scope features")
struct ScopeFeatureTests {
    private static let file = "URLStubsTests/ScopeFeatureTests.swift"
    private let location = StubSourceLocation(fileID: Self.file, filePath: #filePath, line: #line, column: #column)

    @Test("a scope that stubs, is sent requests and is waited on has no optional feature attached, so its requests get no feature's part")
    func plainScopeHasNoFeature() throws {
        try #require(!LiveCheck.isOnForRun) // Drift checks turned on for the run attach to every scope.
        let registry = StubRegistry()
        let scope = registry.openScope(name: "plain", parent: nil, location: nil)
        #expect(registry.register(.get("https://plain.example.com/x"), source: .fixed(.status(204)), expectation: .anyNumber, location: location, in: scope) != nil)
        _ = registry.resolve(URLRequest(url: URL(string: "https://plain.example.com/x")!), body: nil, route: .scope(scope), pending: Unabandoned())
        _ = registry.resolve(URLRequest(url: URL(string: "https://plain.example.com/y")!), body: nil, route: .scope(scope), pending: Unabandoned())
        #expect(features(of: scope, in: registry) == [])
        _ = registry.endScope(scope)
    }

    @Test("injectFaults and shuffleResponseOrder attach one faults feature between them; a cassette and drift checks one recording feature between them")
    func featuresAttachOnce() {
        let registry = StubRegistry()
        let scope = registry.openScope(name: "featured", parent: nil, location: nil)
        registry.add(.faults(FaultRule(pattern: .anyRequest, rate: 0, faults: [], latency: .zero, location: location)), seed: 7, to: scope)
        registry.add(.order(ResponseOrderRule(pattern: .anyRequest, spacing: .milliseconds(1), positions: 2, location: location)), seed: 7, to: scope)
        #expect(features(of: scope, in: registry) == ["ScopeFaults"])
        #expect(registry.attachCassette(URL(fileURLWithPath: "/tmp/never-written.har"), recording: nil, to: scope))
        #expect(registry.checkLive(in: scope))
        #expect(features(of: scope, in: registry) == ["ScopeFaults", "ScopeRecording"])
        #expect(registry.seed(of: scope) == 7)
        _ = registry.endScope(scope)
    }

    @Test("a scenario, a seed given with the scope's options and a server each attach a feature of their own, once, with no part in requests; a stub's scenario reaches the core only as its rule")
    func scenariosSeedAndServersAreFeatures() throws {
        let registry = StubRegistry()
        let scope = registry.openScope(name: "featured", parent: nil, location: nil)
        registry.createScenario("cart", startingIn: "empty", at: location, in: scope)
        registry.createScenario("login", startingIn: "out", at: location, in: scope)
        registry.setSeed(7, of: scope)
        registry.setSeed(8, of: scope)
        let server = try StubServer(scope: scope, origin: nil, limits: ServingLimits())
        #expect(registry.stopWhenEnded(server, in: scope))
        server.start()
        #expect(features(of: scope, in: registry) == ["ScopeScenarios", "ScopeSeed", "ScopeServing"])
        // None of them takes part in resolving requests: the scope's requests skip every feature hook.
        #expect(registry.withIsolation { $0.scopes[scope.id]?.takesPartInRequests } == false)
        let cart = StubScenario(name: "cart", scope: scope)
        let binding = try #require(ScenarioBinding(cart.is("empty"), cart.transition(to: "filled")))
        let id = try #require(registry.register(.get("https://cart.example.com/add"), source: .fixed(.status(201)), expectation: .anyNumber, location: location, rule: binding, in: scope))
        #expect(registry.withIsolation { registry in registry.scopes[scope.id]?.entries.first { $0.id == id }?.rule is ScenarioRule })
        #expect(registry.withIsolation { registry in (registry.scopes[scope.id]?.feature(ScopeSeed.self)?.seed) } == 8)
        _ = registry.endScope(scope)
        #expect(!server.isRunning)
        #expect(!registry.stopWhenEnded(server, in: scope))
    }

    @Test("a server that never started stops at once and closes its port; started after it stopped, it does not accept")
    func unstartedServerStops() throws {
        let registry = StubRegistry()
        let scope = registry.openScope(name: "unstarted", parent: nil, location: nil)
        defer { _ = registry.endScope(scope) }
        let server = try StubServer(scope: scope, origin: nil, limits: ServingLimits())
        let stopped = DispatchSemaphore(value: 0)
        Thread { server.stop(); stopped.signal() }.start()
        #expect(stopped.wait(timeout: .patienceFromNow) == .success, "stop() of a server that never started returned")
        #expect(!server.isRunning)
        server.start()
        #expect(!server.isRunning)
        #expect((try? RawConnection(port: UInt16(server.port))) == nil, "the port was closed")
    }

    private func features(of scope: StubScope, in registry: StubRegistry) -> [String] {
        registry.withIsolation { registry in
            registry.scopes[scope.id]?.features.map { String(describing: type(of: $0)) } ?? ["(ended)"]
        }
    }
}

/// A request whose answers here are all fixed: never abandoned.
private final class Unabandoned: PendingAnswer {
    func abandon(with error: URLError) -> Task<Void, Never>? {
        nil
    }
}
