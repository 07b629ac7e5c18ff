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
/// Apple's Network.framework loader (`usesClassicLoadingMode = false`) may give
/// the protocol another object than the task that was resumed. For that case each
/// tag is also filed under the task's ``ResumeKey`` (its identifier, method and
/// URL): a protocol whose own task of that loader was never tagged takes the scope
/// of the live tasks resumed under the same key, if they all agree, and is refused
/// otherwise. Identifiers count within a session, so tests that each build their
/// own session and request one URL at the same time make such keys ambiguous:
/// those requests are refused, which is why stubbed configurations select the
/// classic loader.
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
        /// The task itself was not tagged, and live tasks with its ``ResumeKey``
        /// were resumed in different scopes: which one it stands for is unknown.
        case ambiguous
        /// The task was resumed on this route: in a scope, or outside any.
        case resumed(RequestRoute)
    }

    /// What a task stand-in shares with the task it stands for: its identifier in
    /// its session, its method and its URL.
    struct ResumeKey: Hashable {
        let taskIdentifier: Int
        let method: String
        let url: String

        init(_ task: URLSessionTask) {
            let request = task.originalRequest
            taskIdentifier = task.taskIdentifier
            method = request?.httpMethod ?? "GET"
            url = request?.url?.absoluteString ?? ""
        }
    }

    private struct Entry {
        weak var task: URLSessionTask?
        let route: RequestRoute
        let key: ResumeKey
    }

    private struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        var byKey: [ResumeKey: [ObjectIdentifier]] = [:]
        var sweepAt = 1_024

        /// Forgets the entries whose task is gone.
        mutating func sweep() {
            entries = entries.filter { $0.value.task != nil }
            byKey = byKey.compactMapValues { identifiers in
                let live = identifiers.filter { entries[$0] != nil }
                return live.isEmpty ? nil : live
            }
            sweepAt = max(1_024, entries.count * 2)
        }
    }

    private let table = Locked(Table())

    /// Tags `task` with the scope current on the calling task, unless it has a tag
    /// already (the first resume wins).
    func tagOnFirstResume(_ task: URLSessionTask) {
        tag(task, with: .current)
    }

    /// Tags `task` with `route`, unless it has a tag already.
    func tag(_ task: URLSessionTask, with route: RequestRoute) {
        let identifier = ObjectIdentifier(task)
        let isTagged = table.withLock { table in table.entries[identifier].map { $0.task === task } ?? false }
        guard !isTagged else { return } // A later resume, or a hooked superclass's resume.
        let key = ResumeKey(task) // Read outside the lock: each read calls Foundation.
        table.withLock { table in
            if let existing = table.entries[identifier], existing.task === task {
                return
            }
            if let replaced = table.entries[identifier] {
                // A task that is gone left its address to this one.
                table.byKey[replaced.key]?.removeAll { $0 == identifier }
            }
            table.entries[identifier] = Entry(task: task, route: route, key: key)
            table.byKey[key, default: []].append(identifier)
            if table.entries.count >= table.sweepAt {
                table.sweep()
            }
        }
    }

    /// The tag of `task`, or else, for a task of the Network.framework loader
    /// (its class name starts with `NW`), the scope its stand-in's key leads to.
    ///
    /// The key is looked up among live tasks: a task is held by its session while
    /// it runs, so the task a stand-in stands for is among them while the
    /// protocol loads it.
    func tag(of task: URLSessionTask) -> Tag {
        let identifier = ObjectIdentifier(task)
        if let own = table.withLock({ table -> Tag? in
            guard let entry = table.entries[identifier], entry.task === task else { return nil }
            return .resumed(entry.route)
        }) {
            return own
        }
        // A classic task that was never tagged borrows no other task's scope.
        guard String(describing: type(of: task)).hasPrefix("NW") else { return .untagged }
        let key = ResumeKey(task)
        return table.withLock { table in
            let live = (table.byKey[key] ?? []).compactMap { table.entries[$0] }.filter { $0.task != nil }
            guard let first = live.first else { return .untagged }
            return live.allSatisfy { $0.route == first.route } ? .resumed(first.route) : .ambiguous
        }
    }

    /// How many entries the table holds, swept or not (for tests of its memory).
    var count: Int {
        table.withLock { $0.entries.count }
    }
}
