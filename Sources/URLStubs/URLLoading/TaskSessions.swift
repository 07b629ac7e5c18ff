#if canImport(FoundationNetworking)
import FoundationNetworking
import Foundation

/// The session of the task whose protocol Foundation is running, on Linux, found
/// by reflection for a session's first task only.
///
/// Foundation on Linux keeps a task's session in an internal property, and
/// reading it by reflection (``FoundationInternals``) costs about as much as the
/// rest of answering a request (about 4 µs going straight to it, 13 µs searched by
/// name), paid by every request of a session with a delegate, whose tasks are
/// checked for a delegate of their own. So the first read for a session also marks
/// the session's work queue with the session (its session mark; weakly, as the
/// queue belongs to the session). Foundation runs each task's protocol on the
/// task's own work queue, which targets its session's, and a queue-specific value
/// is looked up through the target queues: on that queue, the mark names the task's
/// session in one lookup.
///
/// It relies on each session having a work queue of its own, as
/// swift-corelibs-foundation gives it (`URLSession.init`). Anything unexpected falls
/// back to reflection, the same answer, only slower: no mark, or a queue or session
/// that cannot be read. A session whose first task finds its queue marked for
/// another session turns marks off for good (sessions would then share a queue);
/// that check is made where a session is marked, so a session whose tasks all found
/// another's mark first would not be told apart. A mark is never replaced: Dispatch
/// hands a value out without retaining it, so replacing one could free it under a
/// reader.
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

    /// Whether marks are set and read; `false` for good once a queue was found
    /// marked for another session.
    private static let marksAreUsed = Locked(true)

    /// The session of `task`, whose protocol is running on the calling queue (where
    /// Foundation calls `startLoading()`, and where the client's calls are made):
    /// the mark found there is `task`'s session's, and only there. `nil` when the
    /// session cannot be read.
    static func session(ofRunning task: URLSessionTask) -> URLSession? {
        let isMarking = marksAreUsed.withLock { $0 }
        if isMarking, let session = sessionMarkedHere {
            return session
        }
        guard let session = FoundationInternals.field("session", of: task) as? URLSession else { return nil }
        if isMarking, let queue = FoundationInternals.field("workQueue", of: session) as? DispatchQueue {
            mark(queue, with: session)
        }
        return session
    }

    /// The session named by the mark the calling queue, or a queue it targets,
    /// carries; `nil` where there is none.
    static var sessionMarkedHere: URLSession? {
        DispatchQueue.getSpecific(key: key)?.session
    }

    /// Marks `queue`, the work queue of `session`, unless it is marked already.
    private static func mark(_ queue: DispatchQueue, with session: URLSession) {
        marksAreUsed.withLock { isMarking in
            guard isMarking else { return }
            guard let mark = queue.getSpecific(key: key) else {
                queue.setSpecific(key: key, value: Mark(session))
                return
            }
            // Marked by another task of the session, first; a mark naming another
            // session, or a freed one, means that sessions share this queue.
            if mark.session !== session {
                isMarking = false
            }
        }
    }
}
#endif
