#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The URL protocol that answers requests from stub scopes instead of the network.
///
/// Put it first in a session configuration's `protocolClasses` (or use
/// `URLSessionConfiguration.stubbed`, which also sets `urlCache = nil`). It
/// intercepts every request of such a session: nothing reaches the network, and a
/// request no stub matches fails with a `URLError` that says why.
///
/// It holds Foundation's hooks and little else; one request's path reads in
/// `Delivery` (what happens when) and `DeliveryDriver` (how it is done):
/// - ``canInit(with:)`` returns `true` at once; it takes no lock and reads nothing.
/// - The scope a request belongs to is the one current where its task was first
///   resumed: recorded on the task (`TaskScopes`) by the `resume` hook on Apple
///   platforms, and on the protocol itself by `init(task:cachedResponse:client:)`
///   on Linux, where Foundation creates the protocol inside `resume()` and keeps
///   it across a suspend.
/// - ``startLoading()`` resolves the request in that scope and, for a fixed answer,
///   calls the client before returning, on the thread Foundation called it on.
/// - ``stopLoading()`` stops the delivery: nothing reaches the client while the
///   protocol is stopped, and never after a cancel.
public final class StubURLProtocol: URLProtocol {
    /// Where loading is; touched only on the thread Foundation calls
    /// `startLoading()` and `stopLoading()` on.
    private var loading = Loading.notStarted

    /// The scope current where Foundation created the protocol for its task, on
    /// the caller's task (Linux); `nil` when it was created some other way, and
    /// the task's tag in `TaskScopes` decides.
    private var resumedIn: TaskScopes.Tag?

    /// Where this protocol's loading is.
    private enum Loading {
        /// `startLoading()` was not called yet.
        case notStarted
        /// A cancel's `stopLoading()` came before any `startLoading()`: there is
        /// nothing to answer, ever.
        case cancelledBeforeStart
        /// `startLoading()` failed the request before resolving it (a task kind or
        /// delegate Foundation cannot serve, or no single scope to route it to): that
        /// failure was the request's last call, even when Foundation calls
        /// `startLoading()` again (a second `resume()`, or one after a suspend).
        case refused
        /// `startLoading()` handed the request to its delivery.
        case started(DeliveryDriver)
    }

    /// Returns `true`: a stubbed session answers every request from stubs.
    override public class func canInit(with request: URLRequest) -> Bool {
        true
    }

    /// Returns `request` unchanged.
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    #if canImport(FoundationNetworking)
    /// Creates the protocol for `request`.
    public required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }

    /// Creates the protocol for `task`, recording in it the stub scope current on
    /// the calling task: Foundation on Linux calls this inside `resume()`, on the
    /// caller's task (when the session has no URL cache), before it schedules
    /// `startLoading()` on its work queue.
    public required convenience init(task: URLSessionTask, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        // A task always carries its request when Foundation resumes it.
        self.init(request: task.originalRequest ?? URLRequest(url: URL(string: "about:blank")!), cachedResponse: cachedResponse, client: client)
        self.task = task
        // On the protocol, not in the table: Foundation creates one protocol per
        // task, at its first resume, and keeps it across a suspend.
        resumedIn = .resumed(.current)
    }
    #endif

    /// Answers the request: before returning for a fixed answer, later on this
    /// same thread for a delayed or computed one.
    override public func startLoading() {
        switch loading {
        case let .started(delivery):
            delivery.start(self) // After a suspend, or Foundation calling again on Linux.
            return
        case .cancelledBeforeStart, .refused:
            return // Nothing is resolved, logged or delivered for a cancelled or refused request.
        case .notStarted:
            break
        }
        // Read once: each read of `task` is a call into Foundation.
        let task = self.task
        if let unsupported = Self.unsupportedKind(of: task) {
            fail(FailureMessages.unsupportedTask(request, kind: unsupported))
            return
        }
        #if canImport(FoundationNetworking)
        if let task, let delegate = task.delegate, Self.isOwnDelegate(delegate, of: task) {
            // Foundation on Linux calls only the session's delegate: a task's own
            // delegate would wait forever for a response, its data and its end.
            // Said on standard error too, as a test waiting for those calls never
            // sees the failure.
            let message = FailureMessages.taskDelegateOnLinux(request, delegate: delegate)
            FileHandle.standardError.write(Data((message + "\n").utf8))
            fail(message)
            return
        }
        #endif
        guard let task else {
            fail(FailureMessages.untagged(request, taskClass: nil))
            return
        }
        let route: RequestRoute
        switch resumedIn ?? TaskScopes.shared.tag(of: task) {
        case let .resumed(resumedRoute):
            route = resumedRoute
        case .untagged:
            fail(FailureMessages.untagged(request, taskClass: String(describing: type(of: task))))
            return
        case .ambiguous:
            fail(FailureMessages.ambiguousTask(request, taskClass: String(describing: type(of: task))))
            return
        }
        let delivery = DeliveryDriver(route: route)
        loading = .started(delivery)
        delivery.start(self)
    }

    /// Stops the delivery: nothing reaches the client until loading starts again
    /// (after a suspend), and never after a cancel, even one that comes before
    /// loading started.
    override public func stopLoading() {
        let isCancel = task?.state != .suspended
        switch loading {
        case let .started(delivery):
            delivery.stop(isCancel: isCancel)
        case .notStarted where isCancel:
            loading = .cancelledBeforeStart
        case .notStarted, .cancelledBeforeStart, .refused:
            break
        }
    }

    /// Fails the request at once, without asking the registry, and only once:
    /// Foundation on Linux stops the process on a call for a task it has let go.
    private func fail(_ message: String) {
        loading = .refused
        client?.urlProtocol(self, didFailWithError: StubFailure.error(message, url: request.url))
    }

    #if canImport(FoundationNetworking)
    /// Whether `delegate`, the delegate of `task`, is one the task was given of its
    /// own rather than its session's (which Foundation on Linux puts on every task
    /// the session makes). `false` when the session cannot be found.
    ///
    /// The session is an internal property of the task on Linux, read only for a
    /// task that has a delegate at all, by reflection for a session's first task
    /// (see ``TaskSessions``). The first such read walks the task's stored
    /// properties up to it (later ones go straight to it); those before it (byte
    /// counts, progress, the begin date, the suspend count) change only when the app
    /// sets them or suspends the task, which it does not do while the task is
    /// starting.
    private static func isOwnDelegate(_ delegate: any URLSessionTaskDelegate, of task: URLSessionTask) -> Bool {
        guard let session = TaskSessions.session(ofRunning: task) else { return false }
        return session.delegate !== delegate
    }
    #endif

    /// The kind of `task` when it is one Foundation on Linux cannot complete
    /// through a URL protocol.
    private static func unsupportedKind(of task: URLSessionTask?) -> String? {
        #if canImport(FoundationNetworking)
        if task is URLSessionDownloadTask { return "download task" }
        if task is URLSessionWebSocketTask { return "WebSocket task" }
        #endif
        return nil
    }
}
