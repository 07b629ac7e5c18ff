#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

/// Predicates are the user's code: the registry never runs them under its lock.
///
/// Each test uses a registry of its own and resolves on a thread of its own, waited
/// for with a time limit: were a predicate run under the lock, the registry calls
/// it makes would deadlock that thread (and only it), and the test would fail.
@Suite("Predicates run outside the registry's lock")
struct PredicateResultsTests {
    private static let file = "URLStubsTests/PredicateResultsTests.swift"
    private let location = StubSourceLocation(fileID: Self.file, filePath: #filePath, line: #line, column: #column)

    @Test("a stub's predicate may read its scope's log and register a stub while its request is resolved; it sees the requests before it, and the stub it registers is there afterwards")
    func stubPredicateUsesTheRegistry() throws {
        let registry = StubRegistry()
        let scope = registry.openScope(name: "predicates", parent: nil, location: nil)
        #expect(registry.register(.get("https://p.example.com/first"), source: .fixed(.status(204)), expectation: .anyNumber, location: location, in: scope) != nil)
        let seen = Locked<[[String]]>([])
        let location = location
        let pattern = RequestPattern.predicate("reads the log and registers a stub") { request in
            seen.withLock { $0.append(registry.requests(in: scope).map(\.url.path)) }
            _ = registry.register(.get("https://p.example.com/added"), source: .fixed(.status(201)), expectation: .anyNumber, location: location, in: scope)
            return request.url.path == "/decided"
        }
        #expect(registry.register(pattern, source: .fixed(.status(200)), expectation: .anyNumber, location: location, in: scope) != nil)
        _ = try #require(Self.resolved(URLRequest(url: URL(string: "https://p.example.com/first")!), in: scope, of: registry))
        let decided = try #require(Self.resolved(URLRequest(url: URL(string: "https://p.example.com/decided")!), in: scope, of: registry))
        #expect(Self.status(of: decided) == 200)
        // The predicate runs for every request (it is the newest stub until it adds
        // one), before the request it decides is logged.
        #expect(seen.withLock { $0 } == [[], ["/first"]])
        #expect(registry.usage(in: scope).map(\.pattern) == [
            "GET https://p.example.com/first", "ANY any URL [reads the log and registers a stub]",
            "GET https://p.example.com/added", "GET https://p.example.com/added",
        ])
        #expect(registry.usage(in: scope).map(\.hits) == [1, 1, 0, 0])
        _ = registry.endScope(scope)
    }

    @Test("each predicate met runs at most once per request, and the newest stub whose predicate holds answers")
    func predicatesRunOnce() throws {
        let registry = StubRegistry()
        let scope = registry.openScope(name: "once", parent: nil, location: nil)
        let calls = Locked<[String: Int]>([:])
        for (name, holds, status) in [("oldest", true, 201), ("middle", true, 202), ("newest", false, 203)] {
            let pattern = RequestPattern.get("https://once.example.com/x").matching(name) { _ in
                calls.withLock { $0[name, default: 0] += 1 }
                return holds
            }
            #expect(registry.register(pattern, source: .fixed(.status(status)), expectation: .anyNumber, location: location, in: scope) != nil)
        }
        let resolution = try #require(Self.resolved(URLRequest(url: URL(string: "https://once.example.com/x")!), in: scope, of: registry))
        #expect(Self.status(of: resolution) == 202)
        let counts = calls.withLock { $0 }
        #expect(counts["newest"] == 1)
        #expect(counts["middle"] == 1)
        #expect((counts["oldest"] ?? 0) <= 1)
        _ = registry.endScope(scope)
    }

    @Test("a predicate met twice while a request is matched (one pattern registered for two stubs) runs once")
    func sharedPredicateRunsOnce() throws {
        let registry = StubRegistry()
        let scope = registry.openScope(name: "shared", parent: nil, location: nil)
        let calls = Locked(0)
        let pattern = RequestPattern.predicate("counted") { _ in
            calls.withLock { $0 += 1 }
            return false
        }
        for status in [201, 202] {
            #expect(registry.register(pattern, source: .fixed(.status(status)), expectation: .anyNumber, location: location, in: scope) != nil)
        }
        let resolution = try #require(Self.resolved(URLRequest(url: URL(string: "https://shared.example.com/x")!), in: scope, of: registry))
        #expect(Self.status(of: resolution) == nil) // Unmatched.
        #expect(calls.withLock { $0 } == 1)
        _ = registry.endScope(scope)
    }

    @Test("when many requests race for a stub with a predicate and a limit of one, exactly one is answered by it: its use is taken in the critical section that decides, after the predicates ran")
    func raceForTheLastUse() throws {
        let registry = StubRegistry()
        let scope = registry.openScope(name: "race", parent: nil, location: nil)
        let pattern = RequestPattern.predicate("slow") { _ in
            Thread.sleep(forTimeInterval: 0.001) // Widens the window between the predicate and the claim.
            return true
        }
        #expect(registry.register(pattern, source: .fixed(.status(200)), expectation: .once, location: location, in: scope) != nil)
        let statuses = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 32) { index in
            let resolution = registry.resolve(URLRequest(url: URL(string: "https://race.example.com/\(index)")!), body: nil, route: .scope(scope), pending: NoPending())
            statuses.withLock { $0.append(Self.status(of: resolution) ?? -1) }
        }
        let all = statuses.withLock { $0 }
        #expect(all.filter { $0 == 200 }.count == 1)
        #expect(all.filter { $0 == -1 }.count == 31) // Each failed as over the stub's limit.
        #expect(registry.usage(in: scope).map(\.hits) == [1])
        _ = registry.endScope(scope)
    }

    @Test("the predicate of a pattern waited for, and of an injectFaults call, may read the scope's log while a request is resolved")
    func waiterAndFaultPredicatesUseTheRegistry() async throws {
        let registry = StubRegistry()
        let scope = registry.openScope(name: "waiting", parent: nil, location: nil)
        #expect(registry.register(.anyRequest, source: .fixed(.status(204)), expectation: .anyNumber, location: location, in: scope) != nil)
        let faultPattern = RequestPattern.predicate("reads the log, fails /fail") { request in
            _ = registry.requests(in: scope)
            return request.url.path == "/fail"
        }
        registry.add(.faults(FaultRule(pattern: faultPattern, rate: 1, faults: [.status(503)], latency: .zero, location: location)), seed: 1, to: scope)
        let waitPattern = RequestPattern.predicate("reads the log, wants /wanted") { request in
            _ = registry.requests(in: scope)
            return request.url.path == "/wanted"
        }
        _ = try #require(Self.resolved(URLRequest(url: URL(string: "https://w.example.com/wanted")!), in: scope, of: registry))
        let waiting = Task { try await registry.waitForRequests(matching: waitPattern, count: 2, in: scope, timeout: .patience) }
        while registry.withIsolation({ $0.scopes[scope.id]?.waiters.isEmpty ?? true }) {
            await Task.yield()
        }
        let failed = try #require(Self.resolved(URLRequest(url: URL(string: "https://w.example.com/fail")!), in: scope, of: registry))
        #expect(Self.status(of: failed) == 503)
        _ = try #require(Self.resolved(URLRequest(url: URL(string: "https://w.example.com/wanted")!), in: scope, of: registry))
        #expect(try await waiting.value.map(\.url.path) == ["/wanted", "/wanted"])
        _ = registry.endScope(scope)
    }

    @Test("a predicate inside an .or or a .not of a pattern waited for may read the scope's log too, for the requests logged before the wait began")
    func nestedWaiterPredicatesUseTheRegistry() async throws {
        let registry = StubRegistry()
        let scope = registry.openScope(name: "nested", parent: nil, location: nil)
        #expect(registry.register(.anyRequest, source: .fixed(.status(204)), expectation: .anyNumber, location: location, in: scope) != nil)
        for path in ["/wanted", "/other", "/wanted"] {
            _ = try #require(Self.resolved(URLRequest(url: URL(string: "https://n.example.com" + path)!), in: scope, of: registry))
        }
        let readsLog = RequestPattern.predicate("reads the log, wants /wanted") { request in
            _ = registry.requests(in: scope)
            return request.url.path == "/wanted"
        }
        let either = RequestPattern.get("https://n.example.com/never").or(readsLog)
        #expect(try await registry.waitForRequests(matching: either, count: 2, in: scope, timeout: .patience).map(\.url.path) == ["/wanted", "/wanted"])
        let neither = RequestPattern.not(readsLog)
        #expect(try await registry.waitForRequests(matching: neither, count: 1, in: scope, timeout: .patience).map(\.url.path) == ["/other"])
        _ = registry.endScope(scope)
    }

    /// Resolves `request` in `scope` on a thread of its own; `nil` (and an issue)
    /// when that takes longer than ``Duration/patience``, as it would if it deadlocked.
    private static func resolved(_ request: URLRequest, in scope: StubScope, of registry: StubRegistry) -> StubRegistry.Resolution? {
        let result = Locked<StubRegistry.Resolution?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let resolution = registry.resolve(request, body: nil, route: .scope(scope), pending: NoPending())
            result.withLock { $0 = resolution }
            done.signal()
        }
        guard done.wait(timeout: .patienceFromNow) == .success else {
            Issue.record("resolving \(request.url?.absoluteString ?? "") took more than \(Duration.patience): a deadlock")
            return nil
        }
        return result.withLock { $0 }
    }

    /// The status of a fixed HTTP answer, or `nil` for any other resolution.
    private static func status(of resolution: StubRegistry.Resolution) -> Int? {
        guard case let .respond(response, _) = resolution, case let .http(status, _, _) = response.kind else { return nil }
        return status
    }
}

/// A request whose answers here are all fixed: never abandoned.
private final class NoPending: PendingAnswer {
    func abandon(with error: URLError) -> Task<Void, Never>? {
        nil
    }
}
