import Dispatch
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
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
    // @unchecked: `lock` is only ever used through the lock functions below, and
    // `owner` (Linux) is atomic.
    private let lock: UnsafeMutablePointer<LockPrimitive>
    #if !canImport(Darwin)
    /// The thread that holds the lock, or 0: written only by that thread, so a
    /// thread reading its own identity here holds the lock.
    private let owner = Atomic<UInt>(0)
    #endif

    init() {
        lock = .allocate(capacity: 1)
        #if canImport(Darwin)
        lock.initialize(to: os_unfair_lock())
        #else
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` holding the lock. Not recursive: `body` must not enter the
    /// registry again (the rules of ``StubRegistry`` keep user code out of it).
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
        #if DEBUG
        os_unfair_lock_assert_not_owner(lock) // Entered again: it would deadlock.
        #endif
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
        #else
        #if DEBUG
        precondition(owner.load(ordering: .relaxed) != UInt(bitPattern: Self.currentThread), "URLStubs' registry was entered again while this thread was in it")
        #endif
        pthread_mutex_lock(lock)
        owner.store(UInt(bitPattern: Self.currentThread), ordering: .relaxed)
        defer {
            owner.store(0, ordering: .relaxed)
            pthread_mutex_unlock(lock)
        }
        #endif
        return try body()
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
        os_unfair_lock_assert_owner(lock)
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
