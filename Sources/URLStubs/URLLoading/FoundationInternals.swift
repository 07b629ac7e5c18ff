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
    ///
    /// Reflection boxes every child it walks past, and a task's `workQueue` is the
    /// fifteenth of its class: found by name, it costs about 15 µs, and a late
    /// answer reads it for every request. So where a field was found is kept, by
    /// the subject's class and the field's name, and later reads go straight to
    /// that child (about 2 µs); its label is checked there, and a miss searches by
    /// name again.
    static func field(_ name: String, of subject: Any) -> Any? {
        let key = FieldKey(type: ObjectIdentifier(type(of: subject)), name: name)
        if let place = places.withLock({ $0[key] }), let child = child(named: name, at: place, of: subject) {
            return unwrapped(child.value)
        }
        var mirror: Mirror? = Mirror(reflecting: subject)
        var depth = 0
        while let current = mirror {
            var offset = 0
            for child in current.children {
                if child.label == name {
                    places.withLock { $0[key] = FieldPlace(depth: depth, offset: offset) }
                    return unwrapped(child.value)
                }
                offset += 1
            }
            mirror = current.superclassMirror
            depth += 1
        }
        return nil
    }

    /// A field asked for, by the class of the subject it was read from.
    private struct FieldKey: Hashable {
        let type: ObjectIdentifier
        let name: String
    }

    /// Where a field was found: `depth` superclasses up from the subject's class,
    /// as the child at `offset` there.
    private struct FieldPlace {
        let depth: Int
        let offset: Int
    }

    /// Where each field read so far was found.
    private static let places = Locked<[FieldKey: FieldPlace]>([:])

    /// Where the field `name` of a `type` was found, as superclasses up and the
    /// child's offset there; `nil` before it was read from one. For tests.
    static func place(of name: String, in type: Any.Type) -> (depth: Int, offset: Int)? {
        places.withLock { $0[FieldKey(type: ObjectIdentifier(type), name: name)] }.map { ($0.depth, $0.offset) }
    }

    /// The child at `place` of `subject`, if it is labelled `name`.
    private static func child(named name: String, at place: FieldPlace, of subject: Any) -> Mirror.Child? {
        var mirror = Mirror(reflecting: subject)
        for _ in 0..<place.depth {
            guard let superclassMirror = mirror.superclassMirror else { return nil }
            mirror = superclassMirror
        }
        let children = mirror.children
        guard let index = children.index(children.startIndex, offsetBy: place.offset, limitedBy: children.endIndex),
              index != children.endIndex
        else { return nil }
        let child = children[index]
        return child.label == name ? child : nil
    }

    /// `value`, or the value inside it when it is an optional; `nil` for `nil`.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map { unwrapped($0.value) } ?? nil
    }
}
#endif
