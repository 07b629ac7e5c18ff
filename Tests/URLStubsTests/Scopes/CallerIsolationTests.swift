#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

/// A test isolated to an actor (`@MainActor`, or any global actor) opens its scope
/// and calls it without leaving that actor. Code that leaves an actor with an
/// executor of its own, as the main actor has, comes back to it as a job enqueued
/// on that executor: `CountingActor` has one, which counts them. (A default actor
/// could be re-entered without a job, so it would show nothing.) The tests run one
/// at a time, as a job of one would count in another's; drift checks turned on
/// for the run send requests to the network from every scope, so they are off.
@Suite(
    "Caller isolation",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: seedsAreChosenByTests, "URLSTUBS_SEED overrides the seed a test chooses"),
    .enabled(if: !liveChecksAreOnForRun, "URLSTUBS_VERIFY_LIVE sends every scope's requests to the network")
)
struct CallerIsolationTests {
    static let url = URL(string: "https://api.example.com/users/1")!

    @Test("withStubScope on an actor, with the scope's calls in its body (stubs, fixed direct answers, the log, waits), never leaves the actor")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @CountingActor func scopeAndItsCallsStayOnTheActor() async throws {
        let before = CountingActor.shared.jobs
        // Awaits are kept out of #expect, whose expansion may run them elsewhere.
        let counts = try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/users/{id}"), with: .text("someone"))
            let stub = await scope.stub(.get(Self.url.absoluteString), with: .text("Ada"))
            let (exact, _) = try await scope.data(from: Self.url)
            let (template, _) = try await scope.data(from: URL(string: "https://api.example.com/users/2")!)
            #expect(String(decoding: exact, as: UTF8.self) == "Ada")
            #expect(String(decoding: template, as: UTF8.self) == "someone")
            let requests = await scope.requests
            let exchanges = await scope.exchanges
            // Both requests have arrived: the wait returns them at once.
            let waited = try await scope.waitForRequests(matching: .get("https://api.example.com/users/{id}"), count: 2)
            let hits = await stub.hitCount
            let usage = await scope.usage
            await stub.remove()
            await scope.removeAllStubs()
            return (requests.count, exchanges.count, waited.count, hits, usage.map(\.hits))
        }
        #expect(counts == (2, 2, 2, 1, [1, 1]))
        #expect(CountingActor.shared.jobs - before == 0)
    }

    @Test("withStubScope(options) on an actor, which applies its seed and cassette first, never leaves the actor")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @CountingActor func scopeWithOptionsStaysOnTheActor() async throws {
        let directory = try TemporaryDirectory()
        let cassette = directory.file("users.har")
        try writeHAR(#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://api.example.com/users/1"}, "response": {"status": 200, "content": {"text": "Ada"}}}]}}"#, to: cassette)
        let before = CountingActor.shared.jobs
        let (body, seed) = try await withStubScope(StubScopeOptions(name: "seeded", cassette: .at(cassette), seed: 7)) { scope in
            // The seed is the scope's once it has something to seed; the order is
            // shuffled for other requests, as a held answer waits, which leaves the actor.
            await scope.shuffleResponseOrder(.host("other.example.com"))
            let (body, _) = try await scope.data(from: Self.url)
            return (String(decoding: body, as: UTF8.self), await scope.seed)
        }
        #expect(body == "Ada")
        #expect(seed == 7)
        #expect(CountingActor.shared.jobs - before == 0)
    }

    @Test("a manual clock's wait for sleepers already sleeping returns without leaving the actor")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @CountingActor func satisfiedWaitForSleepersStaysOnTheActor() async throws {
        let clock = ManualClock()
        let before = CountingActor.shared.jobs
        try await clock.waitForSleepers(atLeast: 0)
        try await clock.waitForSleepers(atLeast: 0, timeout: .seconds(5))
        #expect(CountingActor.shared.jobs - before == 0)
    }

    @Test("the count is not blind: a call that leaves the actor is counted when it comes back")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @CountingActor func leavingTheActorIsCounted() async throws {
        let before = CountingActor.shared.jobs
        await Self.nonisolatedStep()
        #expect(CountingActor.shared.jobs - before >= 1)
    }

    /// A nonisolated `async` function that suspends: the caller leaves its actor to
    /// run it, and comes back when it returns.
    @concurrent nonisolated static func nonisolatedStep() async {
        await Task.yield()
    }
}

/// Whether drift checks are on for the whole run (`URLSTUBS_VERIFY_LIVE`).
let liveChecksAreOnForRun = LiveCheck.isOnForRun

/// A global actor whose executor counts the jobs enqueued on it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@globalActor
actor CountingActor {
    static let shared = CountingActor()

    private let executor = CountingExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// How many jobs were enqueued on the actor so far.
    nonisolated var jobs: Int {
        executor.count
    }
}

/// A serial executor that runs its jobs, in order, on a dispatch queue of its own
/// (not a thread of the cooperative pool, so a job may block), and counts them.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
private final class CountingExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: `enqueued` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var enqueued = 0
    private let queue = DispatchQueue(label: "CountingExecutor")

    /// How many jobs were enqueued so far.
    var count: Int {
        lock.withLock { enqueued }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        lock.withLock { enqueued += 1 }
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedSerialExecutor())
        }
    }
}
