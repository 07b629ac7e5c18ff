#if canImport(FoundationNetworking)
import FoundationNetworking
import Foundation

/// The session of the task whose protocol Foundation is running, on Linux, found
/// by reflection for a session's first task only.
///
/// Foundation on Linux keeps a task's session in an internal property, and
/// reading it by reflection (``FoundationInternals``) costs more than the rest of
/// answering a request: about 13 µs, paid by every request of a session with a
/// delegate, whose tasks are checked for a delegate of their own. So the first
/// read for a session also marks the session's work queue with the session
/// (weakly: the queue belongs to it). Foundation runs each task's protocol on the
/// task's own work queue, which targets its session's, and a queue-specific value
/// is looked up through the target queues: on that queue, the mark names the
/// task's session in one lookup. Anything unexpected (no mark, a queue or session
/// that cannot be read) falls back to reflection, the same answer, only slower.
enum TaskSessions {
    /// What a session's work queue is marked with.
    private final class Mark: Sendable {
        /// The session; weak, as the session owns the queue that holds the mark.
        weak let session: URLSession?

        init(_ session: URLSession) {
            self.session = session
        }
    }

    /// The key of the mark, private to URLStubs.
    private static let key = DispatchSpecificKey<Mark>()

    /// The session of `task`, or `nil` when it cannot be read; call it on the
    /// queue Foundation runs `task`'s protocol on (where `startLoading()` runs),
    /// the only place where the mark found is `task`'s session's.
    static func session(of task: URLSessionTask) -> URLSession? {
        if let session = DispatchQueue.getSpecific(key: key)?.session {
            return session
        }
        guard let session = FoundationInternals.field("session", of: task) as? URLSession else { return nil }
        if let queue = FoundationInternals.field("workQueue", of: session) as? DispatchQueue {
            queue.setSpecific(key: key, value: Mark(session))
        }
        return session
    }
}
#endif
