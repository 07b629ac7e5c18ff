#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

/// What runs on a scope's clock, and what does not (TestingTime.md).
@Suite("What a scope's clock times", .timeLimit(.minutes(1)))
struct ClockReachTests {
    @Test("a throttled body is paced on the scope's clock: on a manual clock it arrives as the clock is advanced, at the rate's instants")
    func throttlingRunsOnTheScopeClock() async throws {
        let clock = ManualClock()
        let url = URL(string: "https://api.example.com/throttled")!
        let body = Data(repeating: 0x61, count: 2_000) // 2 slices of 1,000 bytes at 20,000 B/s: 50 ms each.
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .data(body).throttled(bytesPerSecond: 20_000))
            let loading = Task { try await URLSession.stubbed.data(from: url) }
            try await clock.waitForSleepers(atLeast: 1, timeout: .patience)
            await clock.advance(by: .milliseconds(50))
            try await clock.waitForSleepers(atLeast: 1, timeout: .patience)
            #expect(await scope.exchanges.first?.endedAt == nil)
            await clock.advance(by: .milliseconds(50))
            #expect(try await loading.value.0 == body)
            #expect(await scope.exchanges.first?.endedAt == .milliseconds(100))
        }
    }

    @Test("run() with no bound stops an endless sleeping loop after 10,000 wake-ups and returns false")
    func runStopsAfterTenThousandWakeUps() async throws {
        let clock = ManualClock(settlingYields: .max) // The loop always sleeps again.
        let loop = Task {
            while true {
                try await clock.sleep(for: .seconds(1))
            }
        }
        try await clock.waitForSleepers(atLeast: 1)
        #expect(await clock.run() == false)
        #expect(clock.now == .zero.advanced(by: .seconds(10_000)))
        #expect(clock.sleeperCount == 1)
        loop.cancel()
        _ = await loop.result
    }

    @Test("a stall of a request with a zero or infinite timeoutInterval is no sleeper, and no advance ends it", arguments: [0, TimeInterval.infinity])
    func endlessStallIsNotASleeper(timeout: TimeInterval) async throws {
        let clock = ManualClock()
        let url = URL(string: "https://api.example.com/stall-forever")!
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .chunks([Data("a".utf8), Data("b".utf8)]).stalling(after: .chunks(1)))
            var request = URLRequest(url: url)
            request.timeoutInterval = timeout
            let loading = Task { [request] in try await URLSession.stubbed.data(for: request) }
            _ = try await scope.waitForRequest(matching: .get(url), timeout: .patience)
            await #expect(throws: ManualClock.SleepersTimeout.self) {
                try await clock.waitForSleepers(atLeast: 1, timeout: .milliseconds(300))
            }
            await clock.advance(by: .seconds(100_000))
            #expect(await scope.exchanges.first?.endedAt == nil)
            loading.cancel()
            let error = await #expect(throws: URLError.self) { try await loading.value }
            #expect(error?.code == .cancelled)
        }
    }
}
