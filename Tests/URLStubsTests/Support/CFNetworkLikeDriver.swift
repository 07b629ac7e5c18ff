#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
@testable import URLStubs

/// Drives `StubURLProtocol` the way CFNetwork does on Apple platforms, so that the
/// Apple path runs on every Linux test run:
/// - "resume" tags the task on the caller's task, through the very function the
///   `resume` hook calls;
/// - `canInit` and the protocol's `init` run on a serial queue, where the caller's
///   task-locals are not visible;
/// - `startLoading()` and `stopLoading()` run on one thread that runs a run loop
///   (CFNetwork's "client thread");
/// - a ``RecordingClient`` notes every client call and the thread it came on.
///
/// In its ``Loader/network`` mode it behaves as Apple's Network.framework loader
/// (`usesClassicLoadingMode = false`) may: the protocol is given a stand-in for
/// the task that was resumed (another object, with the same identifier and
/// request; on Apple platforms, where a task cannot be made by hand, the task
/// itself), and `startLoading()` and `stopLoading()` run on a serial operation
/// queue, on threads with no run loop.
final class CFNetworkLikeDriver: @unchecked Sendable {
    // @unchecked: `clientThread` is written once before `init` returns; the
    // protocols are touched only on the client thread (or the loader queue).

    /// Which of Apple's URL loaders the driver behaves as.
    enum Loader: String, CaseIterable, Sendable, CustomStringConvertible {
        /// CFNetwork's classic loader: the resumed task, a run-loop client thread.
        case classic
        /// The Network.framework loader: a stand-in task, a queue without a run loop.
        case network

        var description: String { rawValue }
    }

    /// One load: its task, its protocol and what its client saw.
    final class Load: @unchecked Sendable {
        // @unchecked: `urlProtocol` is created on the session queue before any
        // other thread reads it, and then used only on the client thread.
        let task: URLSessionTask
        let client = RecordingClient()
        fileprivate(set) var urlProtocol: StubURLProtocol!

        init(task: URLSessionTask) {
            self.task = task
        }
    }

    /// The driver every classic-loader test shares: one client thread, as
    /// CFNetwork has one.
    static let shared = CFNetworkLikeDriver(loader: .classic)

    /// The driver every network-loader test shares.
    static let network = CFNetworkLikeDriver(loader: .network)

    /// The shared driver that behaves as `loader`.
    static func shared(_ loader: Loader) -> CFNetworkLikeDriver {
        loader == .classic ? shared : network
    }

    /// The key that marks the client thread in its thread dictionary.
    static let clientThreadKey = "URLStubsTests.clientThread"

    /// The name of every network-loader queue.
    static let loaderQueueName = "driver.network-loader-queue"

    /// Whether the calling thread is where a driver calls `startLoading()`.
    static var isOnClientThread: Bool {
        Thread.current.threadDictionary[clientThreadKey] != nil || OperationQueue.current?.name == loaderQueueName
    }

    let loader: Loader
    /// The session whose (never resumed) tasks carry the requests: one for every
    /// driver, so that no two tasks share an identifier (a stand-in is matched to
    /// its task by identifier, method and URL, and two drivers' tasks for one URL
    /// would otherwise be as ambiguous as two sessions' are).
    private static let session = URLSession(configuration: .ephemeral)
    private let sessionQueue = DispatchQueue(label: "driver.session-queue")
    private var clientThread: Thread!
    private let clientLoop = ClientLoop()
    /// Where the network loader calls the protocol: serial, no run loop.
    private let loaderQueue = OperationQueue()
    /// How many times the client thread's run loop has returned.
    private let loopTurns = Locked(0)

    init(loader: Loader = .classic) {
        self.loader = loader
        loaderQueue.name = Self.loaderQueueName
        loaderQueue.maxConcurrentOperationCount = 1
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [clientLoop, loopTurns] in
            // A repeating timer keeps the run loop waiting: with only a one-shot timer
            // Foundation on Linux returns from run(mode:before:) at once, and the
            // thread would spin.
            RunLoop.current.add(Timer(timeInterval: 3_600, repeats: true) { _ in }, forMode: .default)
            Thread.current.threadDictionary[CFNetworkLikeDriver.clientThreadKey] = true
            clientLoop.loop = RunLoop.current
            started.signal()
            while !Thread.current.isCancelled {
                _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.05))
                loopTurns.withLock { $0 += 1 }
            }
        }
        thread.name = "driver.client-thread"
        clientThread = thread
        thread.start()
        started.wait()
    }

    /// Creates a task for `request` without resuming it.
    func makeTask(_ request: URLRequest) -> Load {
        Load(task: Self.session.dataTask(with: request))
    }

    /// Does what `-[NSURLSessionTask resume]` does with the hook installed: tags
    /// the task on the calling task, then creates the protocol on the session
    /// queue and calls `startLoading()` on the client thread.
    func resume(_ load: Load) async {
        TaskScopes.shared.tagOnFirstResume(load.task)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            sessionQueue.async {
                precondition(StubScope.current == nil, "the session queue must not see the caller's scope")
                precondition(StubURLProtocol.canInit(with: load.task.originalRequest!))
                let task = self.loader == .network ? Self.standIn(for: load.task) : load.task
                #if canImport(FoundationNetworking)
                // Created the way CFNetwork creates it, reading nothing of the
                // caller: Linux's own init(task:) records the scope current where it
                // runs, which on this queue is none.
                load.urlProtocol = StubURLProtocol(request: load.task.originalRequest!, cachedResponse: nil, client: load.client)
                load.urlProtocol.task = task
                #else
                load.urlProtocol = StubURLProtocol(task: task, cachedResponse: nil, client: load.client)
                #endif
                self.onClientThread {
                    load.client.isInsideStartLoading = true
                    load.urlProtocol.startLoading()
                    load.client.isInsideStartLoading = false
                    continuation.resume()
                }
            }
        }
    }

    /// The task the network loader gives the protocol for `task`.
    private static func standIn(for task: URLSessionTask) -> URLSessionTask {
        #if canImport(FoundationNetworking)
        NWURLSessionTaskStandIn(standingFor: task)
        #else
        task // Apple's URLSession makes every task; the Apple suite runs the real loader.
        #endif
    }

    /// Calls `stopLoading()` on the client thread, as a cancel or suspend does.
    func stop(_ load: Load) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            onClientThread {
                load.urlProtocol.stopLoading()
                continuation.resume()
            }
        }
    }

    /// Calls `startLoading()` again on the client thread, as a resume after a
    /// suspend does.
    func restart(_ load: Load) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            onClientThread {
                load.urlProtocol.startLoading()
                continuation.resume()
            }
        }
    }

    /// How many times the client thread's run loop has returned so far.
    var loopTurnCount: Int {
        loopTurns.withLock { $0 }
    }

    /// Stops the client thread (for a driver of a test's own; the shared one runs
    /// as long as the process).
    func close() {
        clientThread.cancel()
    }

    /// Whether the calling thread is the client thread.
    func isClientThread(_ thread: Thread) -> Bool {
        thread === clientThread
    }

    /// Runs `block` where this driver's loader calls the protocol: on the client
    /// thread, inside its run loop, or on the loader queue.
    private func onClientThread(_ block: @escaping @Sendable () -> Void) {
        switch loader {
        case .classic:
            // Adding a timer from another thread is thread-safe and wakes the loop.
            clientLoop.loop!.add(Timer(timeInterval: 0, repeats: false) { _ in block() }, forMode: .default)
        case .network:
            loaderQueue.addOperation(block)
        }
    }
}

#if canImport(FoundationNetworking)
/// What the network loader may give a URL protocol instead of the task that was
/// resumed: another object, with that task's identifier, request and state. Named
/// like the loader's tasks, as failure messages read the class name.
final class NWURLSessionTaskStandIn: URLSessionDataTask, @unchecked Sendable {
    // @unchecked: `task` is set once in init; the task's own properties are
    // thread-safe to read.
    private let task: URLSessionTask

    init(standingFor task: URLSessionTask) {
        self.task = task
        super.init()
    }

    override var taskIdentifier: Int { task.taskIdentifier }
    override var originalRequest: URLRequest? { task.originalRequest }
    override var currentRequest: URLRequest? { task.currentRequest }
    override var state: URLSessionTask.State { task.state }
}
#endif

/// The client thread's run loop, handed to the threads that schedule work on it.
private final class ClientLoop: @unchecked Sendable {
    // @unchecked: written once by the client thread before the driver's init
    // returns (a semaphore orders it), then only read; adding a timer to a run
    // loop from another thread is thread-safe.
    var loop: RunLoop?
}
