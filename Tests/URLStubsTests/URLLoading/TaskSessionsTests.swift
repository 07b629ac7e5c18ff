#if canImport(FoundationNetworking)
import FoundationNetworking
import Foundation
import Testing
@testable import URLStubs

/// Finding a task's session on Linux through its session mark, checked against
/// reflection from inside a URL protocol, where URLStubs looks.
@Suite("A task's session, found through its session's mark", .timeLimit(.minutes(1)))
struct TaskSessionsTests {
    /// What one `startLoading()` found.
    private struct Finding: Sendable {
        /// The session reflection reads from the task.
        let reflected: URLSession?
        /// The session the calling queue's mark names.
        let marked: URLSession?
        /// What `TaskSessions` answers.
        let found: URLSession?
    }

    /// A URL protocol that records, in `startLoading()`, the session of its task as
    /// each way finds it, then answers with an empty 200.
    private final class RecordingProtocol: URLProtocol {
        /// What each request's `startLoading()` found, by URL.
        private static let recorded = Locked<[String: Finding]>([:])

        /// What the `startLoading()` of the request for `url` found.
        static func finding(for url: URL) -> Finding? {
            recorded.withLock { $0[url.absoluteString] }
        }

        override class func canInit(with request: URLRequest) -> Bool { true }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

        override func startLoading() {
            if let task, let url = request.url {
                // The mark is read before TaskSessions may set it for this task.
                let marked = TaskSessions.sessionMarkedHere
                let finding = Finding(
                    reflected: FoundationInternals.field("session", of: task) as? URLSession,
                    marked: marked,
                    found: TaskSessions.session(ofRunning: task)
                )
                Self.recorded.withLock { $0[url.absoluteString] = finding }
            }
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocolDidFinishLoading(self)
        }

        override func stopLoading() {}
    }

    /// A session delegate that implements nothing.
    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {}

    @Test("for tasks of three sessions running at once, two with delegates, every session found is the task's own, and after each session's first task every one is found through its mark")
    func marksNameTheTasksOwnSession() async throws {
        let sessions = [Delegate(), Delegate(), nil].map { delegate in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [RecordingProtocol.self]
            return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        }
        defer {
            for session in sessions {
                session.invalidateAndCancel()
            }
        }
        let tag = UUID().uuidString
        func url(session: Int, request: Int) -> URL {
            URL(string: "https://api.example.com/\(tag)/\(session)/\(request)")!
        }
        for (index, session) in sessions.enumerated() {
            _ = try await session.data(from: url(session: index, request: 0)) // The first task, which marks.
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for request in 1...20 {
                for (index, session) in sessions.enumerated() {
                    group.addTask { _ = try await session.data(from: url(session: index, request: request)) }
                }
            }
            try await group.waitForAll()
        }
        for (index, session) in sessions.enumerated() {
            let first = try #require(RecordingProtocol.finding(for: url(session: index, request: 0)))
            #expect(first.reflected === session)
            #expect(first.found === session)
            for request in 1...20 {
                let finding = try #require(RecordingProtocol.finding(for: url(session: index, request: request)))
                #expect(finding.reflected === session)
                #expect(finding.marked === session, "found through the mark, session \(index), request \(request)")
                #expect(finding.found === session)
            }
        }
    }

    @Test("off a task's queues no mark is found, and the session is read by reflection")
    func noMarkOffTheQueue() throws {
        let session = URLSession(configuration: .ephemeral, delegate: Delegate(), delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URL(string: "https://api.example.com/never-resumed")!)
        #expect(TaskSessions.sessionMarkedHere == nil)
        #expect(TaskSessions.session(ofRunning: task) === session)
    }
}
#endif
