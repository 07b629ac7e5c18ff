import Foundation

/// A value that is read and written only while a lock is held.
///
/// The registry and each request's delivery keep their state in one of these, so
/// that Foundation's synchronous hooks can reach it without waiting for another
/// thread: a critical section is a few dictionary operations, never a call into
/// Foundation's URL loading, a continuation or user code that may block.
///
/// `NSLock` rather than `Mutex`: the package supports macOS 13 and iOS 16, where the
/// Synchronization module is not available, and one lock type on every platform
/// keeps the Apple and Linux paths the same.
final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is touched only inside `withLock`, while `lock` is held.
    private let lock = NSLock()
    private var state: State

    /// Creates the protected value.
    init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    ///
    /// `body` must be short and must not block, call Foundation's URL loading or
    /// resume continuations: collect such work and do it after returning.
    @inline(__always)
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
