#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

// The example of Documentation/StreamingOnLinux.md, compiled and run. It sits
// between `// snippet: NAME` and `// end snippet` and must stay identical to the
// document's block (checked below).

// snippet: session-delegate
final class ChunkCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `chunks` is only touched under `lock`.
    private let lock = NSLock()
    private var chunks: [Data] = []
    private var ended: CheckedContinuation<[Data], Never>?

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { chunks.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, all) = lock.withLock { (ended, chunks) }
        continuation?.resume(returning: all)
    }

    /// Resumes `task` and returns every chunk once it ends.
    func read(_ task: URLSessionDataTask) async -> [Data] {
        await withCheckedContinuation { continuation in
            lock.withLock { ended = continuation }
            task.resume()
        }
    }
}

@Test func readsTheStreamPieceByPiece() async throws {
    let collector = ChunkCollector()
    let session = URLSession(configuration: .stubbed, delegate: collector, delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    try await withStubScope { scope in
        await scope.stub(.get("https://api.example.com/feed"),
                         with: .chunks(["a", "b"].map { Data($0.utf8) }))
        let task = session.dataTask(with: URL(string: "https://api.example.com/feed")!)
        let chunks = await collector.read(task)          // resumed here, in the scope
        #expect(chunks.map { String(decoding: $0, as: UTF8.self) } == ["a", "b"])
    }
}
// end snippet

@Suite("The guide to streaming on Linux", .timeLimit(.minutes(1)))
struct StreamingOnLinuxGuideTests {
    @Test("the guide's example is compiled, identical, in this file")
    func guideMatchesThisFile() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appending(path: "Documentation/StreamingOnLinux.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let documented = ComingFromGuideTests.guideSnippets(guide)
        #expect(documented.keys.sorted() == ["session-delegate"])
        #expect(documented == ComingFromGuideTests.sourceSnippets(source))
    }
}
