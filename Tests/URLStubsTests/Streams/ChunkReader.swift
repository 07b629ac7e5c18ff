#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// A session delegate that reads a data task's body piece by piece, as a
/// streaming client does, and records every piece, the response and how the task
/// ended.
final class ChunkReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: every stored property is read and written while `lock` is held.

    /// What one task delivered.
    struct Reading: Sendable {
        var response: HTTPURLResponse?
        var chunks: [Data] = []
        var error: (any Error)?
        /// Whether the task completed; a chunk after that is a late chunk.
        var isComplete = false
        /// Chunks delivered after the task completed (there must be none).
        var lateChunks = 0

        /// The chunks as UTF-8 text.
        var texts: [String] { chunks.map { String(decoding: $0, as: UTF8.self) } }
        /// The whole body as UTF-8 text.
        var text: String { texts.joined() }
        /// The `URLError` code the task failed with, if any.
        var errorCode: URLError.Code? { (error as? URLError)?.code }
    }

    private let lock = NSLock()
    private var readings: [Int: Reading] = [:]
    private var endings: [Int: CheckedContinuation<Reading, Never>] = [:]
    private var chunkWaiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]

    /// A session with the stub protocol and this reader as its delegate; set once,
    /// in `init`, before any other task can see the reader.
    private(set) var session: URLSession!

    override init() {
        super.init()
        session = URLSession(configuration: .stubbed, delegate: self, delegateQueue: nil)
    }

    /// Resumes `task` (made with ``session``) and returns what it delivered once it ended.
    func read(_ task: URLSessionDataTask) async -> Reading {
        await withCheckedContinuation { continuation in
            lock.lock()
            endings[task.taskIdentifier] = continuation
            lock.unlock()
            task.resume()
        }
    }

    /// Reads `request` through ``session``, resumed on the calling task (so in its scope).
    func read(_ request: URLRequest) async -> Reading {
        await read(session.dataTask(with: request))
    }

    /// Returns what `task`, resumed elsewhere, delivered once it ended.
    func read(ofEnded task: URLSessionTask) async -> Reading {
        await withCheckedContinuation { continuation in
            lock.lock()
            if readings[task.taskIdentifier, default: Reading()].isComplete {
                let reading = readings[task.taskIdentifier, default: Reading()]
                lock.unlock()
                continuation.resume(returning: reading)
                return
            }
            endings[task.taskIdentifier] = continuation
            lock.unlock()
        }
    }

    /// Returns once `task` delivered `count` chunks.
    func chunks(_ count: Int, of task: URLSessionTask) async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if readings[task.taskIdentifier, default: Reading()].chunks.count >= count {
                lock.unlock()
                continuation.resume()
                return
            }
            chunkWaiters[task.taskIdentifier] = (count, continuation)
            lock.unlock()
        }
    }

    /// What `task` delivered so far.
    func reading(of task: URLSessionTask) -> Reading {
        lock.lock()
        defer { lock.unlock() }
        return readings[task.taskIdentifier, default: Reading()]
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        lock.lock()
        readings[dataTask.taskIdentifier, default: Reading()].response = response as? HTTPURLResponse
        lock.unlock()
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        if readings[dataTask.taskIdentifier, default: Reading()].isComplete {
            readings[dataTask.taskIdentifier, default: Reading()].lateChunks += 1
        }
        readings[dataTask.taskIdentifier, default: Reading()].chunks.append(data)
        var waiter: CheckedContinuation<Void, Never>?
        if let (count, continuation) = chunkWaiters[dataTask.taskIdentifier],
           readings[dataTask.taskIdentifier, default: Reading()].chunks.count >= count {
            chunkWaiters[dataTask.taskIdentifier] = nil
            waiter = continuation
        }
        lock.unlock()
        waiter?.resume()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        readings[task.taskIdentifier, default: Reading()].error = error
        readings[task.taskIdentifier, default: Reading()].isComplete = true
        let reading = readings[task.taskIdentifier, default: Reading()]
        let ending = endings.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        ending?.resume(returning: reading)
    }
}
