import Foundation
import URLStubs

/// Stub scopes held open by parked tasks, each with a few stubs, until released:
/// the "other live scopes" of tests running alongside the measured one.
///
/// Each parked scope stubs the URLs the benchmarks request, with its own body, so a
/// request answered from the wrong scope would be caught by the body checks.
struct ParkedScopes {
    /// A batch of scopes opened together and released together.
    private struct Batch {
        /// Opening it lets the batch's scopes end.
        let release: AsyncLatch
        /// The parked tasks, each inside one scope.
        let tasks: [Task<Void, Never>]
    }

    /// How many stubs each parked scope registers.
    let stubsPerScope: Int
    /// The batches still open.
    private var batches: [Batch] = []
    /// How many scopes are open.
    private(set) var count = 0

    /// Creates an empty set that parks scopes with `stubsPerScope` stubs each.
    init(stubsPerScope: Int = 3) {
        self.stubsPerScope = stubsPerScope
    }

    /// Opens scopes until `total` are open; returns once every one has registered
    /// its stubs.
    mutating func grow(to total: Int) async {
        let added = total - count
        guard added > 0 else { return }
        let ready = AsyncLatch(count: added)
        let release = AsyncLatch(count: 1)
        let stubs = stubsPerScope
        let body = BenchmarkFixtures.body(tag: "parked scope")
        var tasks: [Task<Void, Never>] = []
        tasks.reserveCapacity(added)
        for _ in 0..<added {
            // Detached: a parked scope must be top-level, not nested in the caller's.
            tasks.append(Task.detached {
                try? await withStubScope("parked") { scope in
                    for index in 0..<stubs {
                        await scope.stub(.get(BenchmarkFixtures.parkedURL(index).absoluteString), with: .data(body))
                    }
                    await ready.arrive()
                    await release.wait()
                }
            })
        }
        await ready.wait()
        batches.append(Batch(release: release, tasks: tasks))
        count = total
    }

    /// Ends every parked scope and returns once they have all ended.
    mutating func closeAll() async {
        for batch in batches {
            await batch.release.arrive()
        }
        for batch in batches {
            for task in batch.tasks {
                await task.value
            }
        }
        batches = []
        count = 0
    }
}
