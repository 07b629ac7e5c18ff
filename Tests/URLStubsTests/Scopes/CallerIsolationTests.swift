#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// A test isolated to an actor (`@MainActor`, or any global actor) opens its scope
/// and calls it without leaving that actor: every step that leaves it costs two
/// thread switches, and comes back only as a job enqueued on the actor's executor.
/// `CountingActor`'s executor counts those jobs; the tests run one at a time, as a
/// job of one would count in another's.
@Suite("Caller isolation", .serialized)
struct CallerIsolationTests {
    static let url = URL(string: "https://api.example.com/users/1")!

    @Test("withStubScope on an actor, with the scope's calls in its body, never leaves the actor")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @CountingActor func scopeAndItsCallsStayOnTheActor() async throws {
        let before = CountingActor.shared.jobs
        let hits = try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/users/{id}")) { request in
                .text("user \(request.pathParameters["id"] ?? "")")
            }
            let stub = await scope.stub(.get(Self.url.absoluteString), with: .text("Ada"))
            let (data, _) = try await scope.data(from: Self.url)
            #expect(String(decoding: data, as: UTF8.self) == "Ada")
            #expect(await scope.requests.count == 1)
            #expect(await scope.exchanges.count == 1)
            let hits = await stub.hitCount
            await stub.remove()
            await scope.removeAllStubs()
            return hits
        }
        #expect(hits == 1)
        #expect(CountingActor.shared.jobs - before == 0)
    }

    @Test("withStubScope(options) on an actor, which applies its options first, never leaves the actor")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @CountingActor func scopeWithOptionsStaysOnTheActor() async throws {
        let before = CountingActor.shared.jobs
        let seed = try await withStubScope(StubScopeOptions(name: "seeded", seed: 7)) { scope in
            await scope.shuffleResponseOrder() // The seed is the scope's once it has something to seed.
            return await scope.seed
        }
        #expect(seed == 7)
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

/// A serial executor that runs its jobs, in order, on a dispatch queue, and counts them.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
private final class CountingExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: `enqueued` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var enqueued = 0
    private let queue = DispatchQueue(label: "CountingExecutor")

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
