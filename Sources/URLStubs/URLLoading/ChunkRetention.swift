#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Whether the reader of a task gets every piece of a body the protocol delivers,
/// or only the last one.
///
/// On Apple platforms every reader gets every piece: `bytes(for:)` and delegates
/// as they arrive, `data(for:)` and completion handlers joined.
///
/// Foundation on Linux (6.3) stores each piece over the previous one, and hands the
/// pieces on only to a session delegate that is a `URLSessionDataDelegate`, for a
/// task created without a completion handler; `data(for:)` and completion handlers
/// (even with a task delegate) read only the last stored piece. Nothing public
/// tells which kind of task it is, so this reads Foundation's own fields by
/// reflection: the task's `session`, the session's `taskRegistry`, and the
/// registry's `behaviours`, where such a task is marked `callDelegate`. Anything
/// unexpected answers `false`, and the body is then delivered whole: correct for
/// every reader, only not in pieces. `ChunkRetentionTests` pins both answers.
enum ChunkRetention {
    /// Whether the reader of `task` gets every piece of a body; read on the
    /// session's work queue (the client thread), the only place its task registry
    /// may be read.
    static func keepsEveryChunk(of task: URLSessionTask?) -> Bool {
        #if canImport(FoundationNetworking)
        guard let task,
              let session = field("session", of: task) as? URLSession,
              session.delegate is URLSessionDataDelegate,
              let registry = field("taskRegistry", of: session),
              let behaviours = field("behaviours", of: registry) as? [Int: Any],
              let behaviour = behaviours[task.taskIdentifier]
        else { return false }
        return String(describing: behaviour) == "callDelegate"
        #else
        return true
        #endif
    }

    #if canImport(FoundationNetworking)
    /// The stored property `name` of `subject` or of its superclasses, unwrapped
    /// when it is an optional.
    private static func field(_ name: String, of subject: Any) -> Any? {
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
    #endif
}
