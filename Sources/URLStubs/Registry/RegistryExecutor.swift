import Dispatch
#if canImport(Glibc)
import Glibc
import Synchronization
#elseif canImport(Musl)
import Musl
import Synchronization
#endif

/// The serial executor of ``StubRegistry``: a lock. Holding it is being isolated
/// to the registry.
///
/// Foundation asks the URL protocol for an answer in `startLoading()`, on a thread
/// of its own, and the answer must be given on that thread. So the registry is
/// entered there synchronously: the caller takes this lock and runs its code
/// isolated to the registry, inline (``StubRegistry/withIsolation(_:)``); no job,
/// thread hop or Swift task. ``checkIsolated()`` tells the runtime that a thread
/// holding the lock is on this executor, which is what lets `assumeIsolated`
/// succeed there.
///
/// Jobs (a caller that `await`s an isolated method of the registry) run the same
/// way: on a thread of Dispatch's pool, holding the lock.
final class RegistryExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: `owner` (Linux) is atomic; the lock is a `Locked`.
    private let lock = Locked(())
    #if !canImport(Darwin)
    /// The thread that holds the lock, or 0: written only by that thread, so a
    /// thread reading its own identity here holds the lock.
    private let owner = Atomic<UInt>(0)
    #endif

    /// Runs `body` holding the lock. Not recursive: `body` must not enter the
    /// registry again (the rules of ``StubRegistry`` keep user code out of it), and
    /// debug builds stop with a message if it does.
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
        #if DEBUG
        lock.assertNotOwned() // Entered again: it would deadlock.
        #endif
        return try lock.withLock { _ in try body() }
        #else
        #if DEBUG
        precondition(owner.load(ordering: .relaxed) != UInt(bitPattern: Self.currentThread), "URLStubs' registry was entered again while this thread was in it")
        #endif
        return try lock.withLock { _ in
            owner.store(UInt(bitPattern: Self.currentThread), ordering: .relaxed)
            defer { owner.store(0, ordering: .relaxed) }
            return try body()
        }
        #endif
    }

    #if !canImport(Darwin)
    private static var currentThread: Int {
        Int(bitPattern: UInt(pthread_self()))
    }
    #endif

    /// Stops the process unless the current thread holds the lock: the runtime's
    /// question "is this code on this executor?" for a thread that runs no job of
    /// it (SE-0424).
    func checkIsolated() {
        #if canImport(Darwin)
        lock.assertOwned()
        #else
        precondition(owner.load(ordering: .relaxed) == UInt(bitPattern: Self.currentThread), "URLStubs' registry was entered without its lock")
        #endif
    }

    /// Runs `job` on a thread of Dispatch's pool, holding the lock. (The form of
    /// `enqueue` every supported runtime has: `ExecutorJob` needs macOS 14 and iOS 17.)
    func enqueue(_ job: UnownedJob) {
        DispatchQueue.global().async {
            self.withLock {
                job.runSynchronously(on: self.asUnownedSerialExecutor())
            }
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
