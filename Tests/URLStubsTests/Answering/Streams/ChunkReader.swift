#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Reads a data task's body piece by piece through a session delegate, as a
/// streaming client does, and records every piece, the response and how the task
/// ended.
///
/// A session holds its delegate until it is invalidated: a test ends its reader
/// with ``close()`` (`defer { reader.close() }`), which lets the session, and the
/// reader, be freed.
final class ChunkReader: @unchecked Sendable {
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

    /// A session with the stub protocol whose delegate reports to this reader.
    let session: URLSession

    init() {
        let forwarder = Forwarder()
        session = URLSession(configuration: .stubbed, delegate: forwarder, delegateQueue: nil)
        forwarder.reader = self
    }

    /// Invalidates the session once its tasks have ended, which frees it and the reader.
    func close() {
        session.finishTasksAndInvalidate()
    }

    /// The session's delegate: hands each call to the reader.
    private final class Forwarder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // @unchecked: `reader` is set once, before the session makes any call.
        var reader: ChunkReader?

        func urlSession(
            _ session: URLSession,
            dataTask: URLSessionDataTask,
            didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            reader?.received(response, for: dataTask)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            reader?.received(data, for: dataTask)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            reader?.completed(task, with: error)
        }
    }

    /// Resumes `task` (made with ``session``) and returns what it delivered once it
    /// ended; cancelling the reading task cancels `task`, so that a test whose
    /// stream never ends fails at its time limit instead of hanging the run.
    func read(_ task: URLSessionDataTask) async -> Reading {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                lock.lock()
                endings[task.taskIdentifier] = continuation
                lock.unlock()
                task.resume()
            }
        } onCancel: {
            task.cancel()
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

    private func received(_ response: URLResponse, for dataTask: URLSessionDataTask) {
        lock.lock()
        readings[dataTask.taskIdentifier, default: Reading()].response = response as? HTTPURLResponse
        lock.unlock()
    }

    private func received(_ data: Data, for dataTask: URLSessionDataTask) {
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

    private func completed(_ task: URLSessionTask, with error: (any Error)?) {
        lock.lock()
        readings[task.taskIdentifier, default: Reading()].error = error
        readings[task.taskIdentifier, default: Reading()].isComplete = true
        let reading = readings[task.taskIdentifier, default: Reading()]
        let ending = endings.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        ending?.resume(returning: reading)
    }
}
