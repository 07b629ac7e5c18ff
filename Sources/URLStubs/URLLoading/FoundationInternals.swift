#if canImport(FoundationNetworking)
import FoundationNetworking
import Foundation

/// Foundation's own stored properties on Linux, read by reflection where no public
/// API says what URLStubs must know: the queue a task's client calls belong on
/// (``workQueue(of:)``) and how its reader takes a body (``ChunkRetention``).
///
/// Each read names a field of swift-corelibs-foundation's `URLSessionTask` or
/// `URLSession`; a field that is missing or of another type reads as `nil`, and the
/// caller falls back to a slower way that needs no field. `ClientThreadTests` (the
/// work queue) and `StreamingTests` (a session delegate reading a stream piece by
/// piece) fail when a field the current toolchain should have cannot be read.
enum FoundationInternals {
    /// The serial queue Foundation runs `task`'s protocol on, and on which it
    /// expects the client's calls: its `workQueue`.
    static func workQueue(of task: URLSessionTask) -> DispatchQueue? {
        field("workQueue", of: task) as? DispatchQueue
    }

    /// The stored property `name` of `subject` or of its superclasses, unwrapped
    /// when it is an optional.
    static func field(_ name: String, of subject: Any) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: subject)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == name }) {
                return unwrapped(child.value)
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// `value`, or the value inside it when it is an optional; `nil` for `nil`.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map { unwrapped($0.value) } ?? nil
    }
}
#endif
