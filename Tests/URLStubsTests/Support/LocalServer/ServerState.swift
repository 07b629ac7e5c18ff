import Foundation

/// What a ``LocalServer``'s threads share: its open connections, the requests it
/// received, how many of its threads still run, and whether it is stopping.
final class ServerState: @unchecked Sendable {
    // @unchecked: every stored var is read and written only while `condition` is locked.

    /// The lock around every stored var, and the signal that a thread finished.
    private let condition = NSCondition()
    /// Whether ``stop()`` was called.
    private var stopping = false
    /// The descriptors of the connections open now.
    private var openConnections: Set<Int32> = []
    /// How many connections were accepted so far (the last one's serial number).
    private var connectionsAccepted = 0
    /// The threads still running: the accept loop's (from the start) and one per
    /// open connection.
    private var runningThreads = 1
    /// The requests received so far, in order.
    private var received: [ServedRequest] = []

    /// Every request received so far, in the order their reading finished.
    var requests: [ServedRequest] {
        condition.withLock { received }
    }

    /// How many connections are open now.
    var openConnectionCount: Int {
        condition.withLock { openConnections.count }
    }

    /// Records an accepted connection and the thread about to serve it, and returns
    /// its serial number; `nil` when the server is stopping (the caller closes it).
    func register(_ descriptor: Int32) -> Int? {
        condition.withLock {
            guard !stopping else { return nil }
            openConnections.insert(descriptor)
            runningThreads += 1
            connectionsAccepted += 1
            return connectionsAccepted
        }
    }

    /// Closes a connection its thread is done with, and counts that thread as
    /// finished.
    ///
    /// Closing while locked means ``stop()`` never shuts down a descriptor
    /// number that was closed and reused meanwhile.
    func close(_ descriptor: Int32) {
        condition.withLock {
            openConnections.remove(descriptor)
            Socket.closeDescriptor(descriptor)
            runningThreads -= 1
            condition.broadcast()
        }
    }

    /// Counts the accept loop's thread as finished.
    func acceptLoopFinished() {
        condition.withLock {
            runningThreads -= 1
            condition.broadcast()
        }
    }

    /// Appends `request` to ``requests``.
    func record(_ request: ServedRequest) {
        condition.withLock { received.append(request) }
    }

    /// Marks the server as stopping and shuts down every open connection so that
    /// their threads return; false when it was already stopping.
    func stop() -> Bool {
        condition.withLock {
            guard !stopping else { return false }
            stopping = true
            openConnections.forEach(Socket.shutDown)
            return true
        }
    }

    /// Waits until every thread of the server has finished or `deadline` has
    /// passed, and returns whether they all finished.
    @discardableResult
    func waitUntilFinished(before deadline: Date) -> Bool {
        condition.withLock {
            while runningThreads > 0 {
                guard condition.wait(until: deadline) else { return false }
            }
            return true
        }
    }
}
