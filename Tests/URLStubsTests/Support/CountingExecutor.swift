import Dispatch
import Foundation

/// A serial executor that runs its jobs, in order, on a dispatch queue of its own
/// (not a thread of the cooperative pool, so a job may block), and counts them.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
final class CountingExecutor: SerialExecutor, @unchecked Sendable {
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

/// A global actor on a dispatch queue of its own: code isolated to it runs on no
/// thread of the cooperative pool, so it may block its thread.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@globalActor
actor QueueActor {
    static let shared = QueueActor()

    private let executor = CountingExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }
}
