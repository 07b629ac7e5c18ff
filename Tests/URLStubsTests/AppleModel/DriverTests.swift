#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing

/// The CFNetwork-like driver itself: its client thread must wait for work, as
/// CFNetwork's does, instead of taking a core from every test run.
@Suite("The CFNetwork-like driver", .timeLimit(.minutes(1)))
struct DriverTests {
    @Test("an idle client thread waits in its run loop: it returns a handful of times in 200 ms (its 50 ms deadlines), not hundreds of thousands")
    func idleClientThreadWaits() async throws {
        let driver = CFNetworkLikeDriver() // Its own, so that no other test schedules work on it.
        defer { driver.close() }
        // A rate needs a window; nothing is ordered by it. Even a starved spinning
        // thread turns tens of thousands of times in it (55,926 measured), and a
        // waiting one a handful (22 under the thread sanitizer on a loaded machine).
        let before = driver.loopTurnCount
        try await Task.sleep(for: .milliseconds(200))
        let turns = driver.loopTurnCount - before
        #expect(turns <= 1_000)
    }
}
