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
/// every reader, only not in pieces. `StreamingTests` pins both answers.
enum ChunkRetention {
    /// Whether the reader of `task` gets every piece of a body; read on the task's
    /// work queue (the client thread), which targets its session's: the only place
    /// its session's task registry may be read, and where the session's mark names
    /// it (``TaskSessions``).
    static func keepsEveryChunk(of task: URLSessionTask?) -> Bool {
        #if canImport(FoundationNetworking)
        guard let task,
              let session = TaskSessions.session(ofRunning: task),
              session.delegate is URLSessionDataDelegate,
              let registry = FoundationInternals.field("taskRegistry", of: session),
              let behaviours = FoundationInternals.field("behaviours", of: registry) as? [Int: Any],
              let behaviour = behaviours[task.taskIdentifier]
        else { return false }
        return String(describing: behaviour) == "callDelegate"
        #else
        return true
        #endif
    }
}
