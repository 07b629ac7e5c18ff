#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Which stub scope each URL session task was resumed in, on Apple platforms: the
/// scope travels with the task, from the one moment it is visible to the protocol
/// that answers it.
///
/// A task is tagged once, on the caller's task, when it is first resumed, by the
/// `resume` hook (no protocol hook runs on the caller's task there). The protocol
/// reads the tag in `startLoading()`. A later resume (after a suspend, or in
/// another scope) keeps the first tag. On Linux, where Foundation creates the
/// protocol inside `resume()`, the protocol records the scope itself and the
/// table is used only by the tests that drive the protocol as CFNetwork does.
///
/// Entries hold their task weakly and are swept once the table has doubled since
/// the last sweep, so a finished task's entry costs nothing for long.
final class TaskScopes: Sendable {
    /// The table of the process.
    static let shared = TaskScopes()

    /// What a task was tagged with.
    enum Tag: Equatable {
        /// The task was never tagged: it was not resumed through a hooked `resume`
        /// or a protocol `init` that could see the caller's task.
        case untagged
        /// The task was resumed in this scope, or outside any scope (`nil`).
        case resumed(in: StubScope?)
    }

    private struct Entry {
        weak var task: URLSessionTask?
        let scope: StubScope?
    }

    private struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        var sweepAt = 1_024
    }

    private let table = Locked(Table())

    /// Tags `task` with the scope current on the calling task, unless it has a tag
    /// already (the first resume wins).
    func tagOnFirstResume(_ task: URLSessionTask) {
        tag(task, with: StubScope.current)
    }

    /// Tags `task` with `scope`, unless it has a tag already.
    func tag(_ task: URLSessionTask, with scope: StubScope?) {
        let key = ObjectIdentifier(task)
        table.withLock { table in
            if let existing = table.entries[key], existing.task === task {
                return
            }
            table.entries[key] = Entry(task: task, scope: scope)
            if table.entries.count >= table.sweepAt {
                table.entries = table.entries.filter { $0.value.task != nil }
                table.sweepAt = max(1_024, table.entries.count * 2)
            }
        }
    }

    /// The tag of `task`.
    func tag(of task: URLSessionTask) -> Tag {
        table.withLock { table in
            guard let entry = table.entries[ObjectIdentifier(task)], entry.task === task else { return .untagged }
            return .resumed(in: entry.scope)
        }
    }

    /// How many entries the table holds, swept or not (for tests of its memory).
    var count: Int {
        table.withLock { $0.entries.count }
    }
}
