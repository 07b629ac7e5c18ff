import Foundation

/// A value shared between tasks and threads, read and changed under a lock.
///
/// The benchmark target supports macOS 13, where `Synchronization.Mutex` is not
/// available, so it keeps its own small box.
final class LockedValue<Value>: @unchecked Sendable {
    // `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
