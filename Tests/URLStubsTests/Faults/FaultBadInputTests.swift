#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Bad input to `injectFaults` and `shuffleResponseOrder`: a problem of the scope
/// at the call's line with the reason, the call has no effect, and nothing crashes.
@Suite("Seeded faults: bad input", .timeLimit(.minutes(1)))
struct FaultBadInputTests {
    /// Makes the call `call` on a scope with a stub for every request, then one
    /// request; returns what the request got, whether the scope got a seed, and the
    /// problems the scope ended with.
    private func run(_ call: @escaping @Sendable (StubScope) async -> Void) async -> (outcome: String, seeded: Bool, error: StubVerificationError?) {
        let result = Shared<(String, Bool)>(("", false))
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.anyRequest, with: .status(200))
                await call(scope)
                result.value = (await outcome(of: "https://bad.example.com/x"), await scope.seed != nil)
            }
        }
        return (result.value.0, result.value.1, error)
    }

    @Test("a faults call with an unusable argument is reported at its line with the reason, and has no effect", arguments: [
        (1.5, [StubFault.serviceUnavailable], StubLatency.zero, "the rate 1.5 is not a share from 0 to 1"),
        (-0.1, [.serviceUnavailable], .zero, "the rate -0.1 is not a share from 0 to 1"),
        (.nan, [.serviceUnavailable], .zero, "the rate nan is not a share from 0 to 1"),
        (0.5, [], .zero, "no faults to choose from: give at least one fault, or a rate of 0"),
        (1, [.timedOut, .status(42)], .zero, "the fault status 42 cannot be injected: status 42 is not a final HTTP status (use 200...599)"),
        (1, [.tooManyRequests(retryAfter: .seconds(-1))], .zero, "the fault status 429 cannot be injected: a Retry-After of -1.0 seconds is negative"),
        (1, [.serviceUnavailable], .fixed(.milliseconds(-5)), "the latency -0.005 seconds is negative"),
        (1, [.serviceUnavailable], .uniform(.milliseconds(-5) ... .milliseconds(5)), "the latency -0.005 seconds is negative"),
        (1, [.serviceUnavailable], .logNormal(median: .milliseconds(-1), sigma: 0.5), "the latency -0.001 seconds is negative"),
        (1, [.serviceUnavailable], .logNormal(median: .milliseconds(10), sigma: -1), "the sigma -1.0 of a log-normal latency must be a number of 0 or more"),
        (1, [.serviceUnavailable], .logNormal(median: .milliseconds(10), sigma: .infinity), "the sigma inf of a log-normal latency must be a number of 0 or more"),
    ])
    func unusableFaults(rate: Double, faults: [StubFault], latency: StubLatency, reason: String) async {
        let line = #line + 1
        let (outcome, seeded, error) = await run { await $0.injectFaults(rate: rate, faults: faults, latency: latency) }
        #expect(outcome == "200")
        #expect(!seeded)
        #expect(error?.problems.map(\.message) == ["The faults for every request cannot be used: \(reason)."])
        #expect(error?.problems.map { $0.location?.line } == [line])
        #expect(error?.description.contains("cannot be used: \(reason). (called at URLStubsTests/FaultBadInputTests.swift:\(line))") == true)
        guard case let .invalidFaults(pattern, problem)? = error?.problems.first?.kind else {
            Issue.record("expected an invalid faults call, got \(String(describing: error?.problems.first?.kind))")
            return
        }
        #expect(pattern.description == RequestPattern.anyRequest.description)
        #expect(problem == reason)
    }

    @Test("a malformed pattern is reported with its reason, and the call has no effect")
    func malformedPattern() async {
        let (outcome, seeded, error) = await run { await $0.injectFaults(.get("https://api example.com/x"), rate: 1) }
        #expect(outcome == "200")
        #expect(!seeded)
        #expect(error?.problems.map(\.message) == [#"The faults for GET https://api example.com/x cannot be used: "https://api example.com/x" is not a valid URL: its host contains " "."#])
    }

    @Test("a shuffle with no spacing, too long a spacing, or too few or too many positions is reported at its line, and has no effect", arguments: [
        (Duration.zero, 8, "the spacing 0.0 seconds must be more than zero and at most a day"),
        (.milliseconds(-10), 8, "the spacing -0.01 seconds must be more than zero and at most a day"),
        (.seconds(86_401), 8, "the spacing 86401.0 seconds must be more than zero and at most a day"),
        (.milliseconds(10), 1, "a shuffle needs 2 to 1000 positions, not 1"),
        (.milliseconds(10), 0, "a shuffle needs 2 to 1000 positions, not 0"),
        (.milliseconds(10), 1_001, "a shuffle needs 2 to 1000 positions, not 1001"),
    ])
    func unusableShuffles(spacing: Duration, positions: Int, reason: String) async {
        let line = #line + 1
        let (outcome, seeded, error) = await run { await $0.shuffleResponseOrder(spacing: spacing, positions: positions) }
        #expect(outcome == "200")
        #expect(!seeded)
        #expect(error?.problems.map(\.message) == ["The response order shuffle for every request cannot be used: \(reason)."])
        #expect(error?.problems.map { $0.location?.line } == [line])
    }

    @Test("the warning for faults or a shuffle that are ignored reads right for either: had no effect, and why")
    func ignoredWarnings() {
        let location = StubSourceLocation(fileID: "App/OrdersTests.swift", filePath: "/src/App/OrdersTests.swift", line: 12, column: 5)
        #expect(FaultMessages.globalScope(FaultMessages.orderCall(.anyRequest), at: location) == "The response order shuffle for every request at \(location) had no effect: the global scope is shared by every test running at the same time, so its decisions could never be replayed; call it on the test's scope.")
        #expect(FaultMessages.ignored(FaultMessages.faultsCall(.anyRequest), at: location, scope: .global, hasEnded: false) == "The faults for every request at \(location) had no effect: no stub scope is open there.")
    }

    @Test("faults and shuffles on the global scope, or on a scope that has ended, are ignored")
    func ignoredCalls() async throws {
        await StubScope.global.injectFaults(rate: 1)
        await StubScope.global.shuffleResponseOrder()
        #expect(await StubScope.global.seed == nil)
        let ended = try await withStubScope { $0 }
        await ended.injectFaults(rate: 1, seed: 1)
        #expect(await ended.seed == nil)
        try await withStubScope { scope in
            await scope.stub(.anyRequest, with: .status(204))
            #expect(await outcome(of: "https://bad.example.com/x") == "204")
        }
    }
}
