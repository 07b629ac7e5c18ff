#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value that is read and written only while a lock is held.
///
/// Each request's delivery, the manual clock, the timer heap and the server keep
/// their state in one of these, so that Foundation's synchronous hooks can reach
/// it without waiting for another thread: a critical section is a few dictionary
/// operations, never a call into Foundation's URL loading, a continuation or user
/// code that may block. (The registry is an actor whose executor is a lock of the
/// same kind, ``RegistryExecutor``, under the same rules.)
///
/// The lock lives inline with the value, in one allocation (a `ManagedBuffer`
/// whose header is the value): `os_unfair_lock` on Apple platforms, a
/// `pthread_mutex_t` elsewhere. (`Mutex` from Synchronization needs macOS 15 and
/// iOS 18; `NSLock` on Linux costs several allocations, and a delivery is created
/// for every request.) Copies share the one value and lock.
struct Locked<State>: @unchecked Sendable {
    // @unchecked: the value is touched only inside `withLock`, while the lock is held.
    private let storage: LockedStorage<State>

    /// Creates the protected value.
    init(_ state: State) {
        storage = LockedStorage.make(state)
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    ///
    /// `body` must be short and must not block, call Foundation's URL loading or
    /// resume continuations: collect such work and do it after returning.
    @inline(__always)
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, lock in
            #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&state.pointee)
        }
    }
}

#if canImport(Darwin)
/// The lock ``Locked`` keeps beside its value.
typealias LockPrimitive = os_unfair_lock
#else
/// The lock ``Locked`` keeps beside its value.
typealias LockPrimitive = pthread_mutex_t
#endif

/// The one allocation of a ``Locked`` value: the value as the buffer's header, the
/// lock as its only element.
final class LockedStorage<State>: ManagedBuffer<State, LockPrimitive> {
    /// A buffer holding `state` and an initialised lock.
    static func make(_ state: State) -> LockedStorage<State> {
        let buffer = create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { lock in
                #if canImport(Darwin)
                lock.initialize(to: os_unfair_lock())
                #else
                lock.initialize(to: pthread_mutex_t())
                pthread_mutex_init(lock, nil)
                #endif
            }
            return state
        }
        // `create` makes an instance of the class it is called on.
        return unsafeDowncast(buffer, to: LockedStorage<State>.self)
    }

    deinit {
        withUnsafeMutablePointers { _, lock -> Void in
            #if !canImport(Darwin)
            _ = pthread_mutex_destroy(lock)
            #endif
            lock.deinitialize(count: 1)
        }
        // The header (the value) is deinitialised by ManagedBuffer itself.
    }
}
