#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

@Suite("Scope lifecycle: removing stubs, the global log, the final report", .timeLimit(.minutes(1)))
struct ScopeLifecycleTests {
    static let file = "URLStubsTests/ScopeLifecycleTests.swift"

    @Test("removeAllStubs() empties the scope: its stubs answer nothing, count no hits and are no longer verified, and its request log is kept")
    func removeAllStubs() async throws {
        let opened = Shared(0)
        let failure = Shared<URLError?>(nil)
        let error = await thrownError(StubVerificationError.self) {
            opened.value = #line + 1
            try await withStubScope("clearing") { scope in
                let answered = await scope.stub(.get("https://clear.example.com/a"), with: .text("a"))
                await scope.stub(.get("https://clear.example.com/b"), with: .text("b"), times: .once) // Never met.
                let body = try await getText("https://clear.example.com/a")
                #expect(body == "a")
                await scope.removeAllStubs()
                #expect(await answered.hitCount == 0)
                failure.value = await thrownError(URLError.self) { _ = try await getText("https://clear.example.com/a") }
                #expect(await scope.requests.map(\.description) == ["GET https://clear.example.com/a", "GET https://clear.example.com/a"])
                #expect(await scope.isOpen)
            }
        }
        // Only the request after the removal is a problem: the unmet stub is gone.
        let problems = error?.problems ?? []
        #expect(problems.count == 1)
        guard case let .unmatchedRequest(request, nearMisses)? = problems.first?.kind else {
            Issue.record("expected one unmatched request, got \(problems)")
            return
        }
        #expect(request.description == "GET https://clear.example.com/a")
        #expect(nearMisses.isEmpty)
        #expect(failure.value?.localizedDescription == problems.first?.message)
        let headline = problems.first.map { masked(String($0.message.prefix { $0 != "\n" })) }
        #expect(headline == "URLStubs: no stub matches GET https://clear.example.com/a in scope #N \"clearing\" (opened at \(Self.file):\(opened.value)).")
    }

    @Test("removeAllStubs() removes only the scope's own stubs: the enclosing scope's still answer")
    func removeAllStubsKeepsTheEnclosingScopes() async throws {
        try await withStubScope { outer in
            await outer.stub(.get("https://clear.example.com/c"), with: .text("outer"))
            try await withStubScope { inner in
                await inner.stub(.get("https://clear.example.com/c"), with: .text("inner"))
                let before = try await getText("https://clear.example.com/c")
                await inner.removeAllStubs()
                let after = try await getText("https://clear.example.com/c")
                #expect([before, after] == ["inner", "outer"])
            }
        }
    }

    @Test("the global scope's log keeps exactly the most recent globalLogLimit (10,000) unscoped requests, in order: each request past the limit drops only the oldest one")
    func globalLogKeepsTheMostRecent() {
        #expect(StubRegistry.globalLogLimit == 10_000) // As StubScope.requests documents.
        // Every position of a small ring, twice round, then the real limit.
        for limit in [1, 2, 7, StubRegistry.globalLogLimit] {
            // A registry of its own, so that no other test's unscoped request interleaves.
            let registry = StubRegistry(globalLogLimit: limit)
            let location = StubSourceLocation(fileID: Self.file, filePath: #filePath, line: #line, column: #column)
            #expect(registry.register(.anyRequest, source: .fixed(.status(204)), expectation: .anyNumber, location: location, in: .global) != nil)
            let pending = NothingPending()
            let checkpoints = limit < 100 ? Array(1...2 * limit + 1) : [limit, limit + 1]
            var sent = 0
            for checkpoint in checkpoints {
                while sent < checkpoint {
                    sent += 1
                    _ = registry.resolve(URLRequest(url: URL(string: "https://log.example.com/\(sent)")!), body: nil, route: .noScope, pending: pending)
                }
                // Summed up (first and last numbers, size, order), so that a failure
                // prints one line instead of 10,000 paths.
                let numbers = registry.requests(in: .global).map { Int($0.url.path.dropFirst())! }
                let inOrder = zip(numbers, numbers.dropFirst()).allSatisfy { $0 + 1 == $1 }
                let log = "\(numbers.first ?? 0)...\(numbers.last ?? 0), \(numbers.count) requests\(inOrder ? "" : ", out of order")"
                let kept = min(sent, limit)
                #expect(log == "\(sent - kept + 1)...\(sent), \(kept) requests", "limit \(limit), after \(sent) requests")
            }
        }
    }

    @Test("a scope's end takes, fails and reports exactly the requests still in flight: one settled first is not reported, and one whose answer comes after the end cannot settle, so its answer is dropped")
    func scopeEndAndSettlingDecideOnce() {
        let registry = StubRegistry()
        let scope = registry.openScope(name: "settling", parent: nil, location: nil)
        let title = ScopeMessages.title(of: scope, name: "settling", location: nil)
        let location = StubSourceLocation(fileID: Self.file, filePath: #filePath, line: #line, column: #column)
        let url = "https://settle.example.com/slow"
        #expect(registry.register(.get(url), source: .fixed(.status(200).delayed(by: .seconds(3_600))), expectation: .anyNumber, location: location, in: scope) != nil)
        let answered = RecordingPending()
        let waiting = RecordingPending()
        for pending in [answered, waiting] {
            let resolution = registry.resolve(URLRequest(url: URL(string: url)!), body: nil, route: .scope(scope), pending: pending)
            #expect(resolution.isDeferred)
        }
        #expect(registry.settle(answered, on: .scope(scope))) // Its answer was produced inside the scope.
        let problems = registry.endScope(scope)
        let message = "URLStubs: GET \(url) was still waiting for its response when \(title) ended; await it inside the scope, or cancel it."
        #expect(problems.map(\.message) == [message])
        #expect(problems.map(\.isWarning) == [true])
        #expect(answered.abandonments == [])
        #expect(waiting.abandonments == [message])
        #expect(!registry.settle(waiting, on: .scope(scope))) // An answer produced now is dropped.
        #expect(!registry.settle(answered, on: .scope(scope)))
    }

    @Test("a scope that ends with an unmatched request, an unmet expectation and an abandoned request throws one report listing each in full, numbered")
    func wholeVerificationReport() async throws {
        let lines = Shared<(opened: Int, needed: Int, slow: Int)>((0, 0, 0))
        let pending = Shared<Task<Void, Never>?>(nil)
        let error = await thrownError(StubVerificationError.self) {
            let opened = #line + 1
            try await withStubScope("report") { scope in
                let needed = await scope.stub(.get("https://report.example.com/needed"), with: .status(200), times: .once).location.line
                let slow = await scope.stub(.get("https://report.example.com/slow"), with: .status(200).delayed(by: .seconds(3_600))).location.line
                lines.value = (opened, needed, slow)
                pending.value = Task { _ = try? await getText("https://report.example.com/slow") }
                _ = try await scope.waitForRequest(matching: .get("https://report.example.com/slow"), timeout: .patience)
                _ = try? await getText("https://report.example.com/missing")
            }
        }
        await pending.value?.value
        let (opened, needed, slow) = lines.value
        let scope = "scope #N \"report\" (opened at \(Self.file):\(opened))"
        #expect(error.map { masked($0.description) } == """
            URLStubs: \(scope) ended with 3 problems:
            1. URLStubs: no stub matches GET https://report.example.com/missing in \(scope).
               Nearest stubs:
                 1. GET https://report.example.com/slow (registered at \(Self.file):\(slow))
                    - path: expected /slow, got /missing
                 2. GET https://report.example.com/needed (registered at \(Self.file):\(needed))
                    - path: expected /needed, got /missing
            2. The stub GET https://report.example.com/needed expected exactly 1 request but was requested 0 times. (registered at \(Self.file):\(needed))
            3. (warning) URLStubs: GET https://report.example.com/slow was still waiting for its response when \(scope) ended; await it inside the scope, or cancel it.
            """)
        #expect(error?.problems.map(\.isWarning) == [false, false, true])
    }
}

/// A request that never waits: the log test's answers are all fixed.
private final class NothingPending: PendingAnswer {
    func abandon(with error: URLError) -> Task<Void, Never>? {
        nil
    }
}

/// A waiting request that notes each abandonment's message.
private final class RecordingPending: PendingAnswer {
    private let messages = Locked<[String]>([])

    func abandon(with error: URLError) -> Task<Void, Never>? {
        messages.withLock { $0.append(error.localizedDescription) }
        return nil
    }

    /// The messages of the abandonments so far.
    var abandonments: [String] {
        messages.withLock { $0 }
    }
}
