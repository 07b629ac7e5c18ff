#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Carries one request of ``StubURLProtocol`` through its ``Delivery``: resolves
/// it, produces a late answer, and makes the client calls where and when the
/// delivery says.
///
/// The delivery is kept under a lock. Each method tells it one event, in one
/// short critical section that only changes the value, and performs the action
/// the event returned after unlocking: collect under the lock, act after it. So
/// no registry call, Foundation call, task start or client call is ever made
/// while the lock is held.
final class DeliveryDriver: PendingAnswer {
    private let delivery = Locked(Delivery())
    /// Where the request is resolved: the scope it was resumed in, or none.
    let route: RequestRoute

    init(route: RequestRoute) {
        self.route = route
    }

    /// Starts loading, on the thread Foundation called `startLoading()` on: resolves
    /// the request and answers it there, or starts producing a late answer, or
    /// (after a suspend, or when Foundation calls again on Linux) makes the calls
    /// that are ready.
    func start(_ urlProtocol: StubURLProtocol) {
        switch delivery.withLock({ $0.startLoading() }) {
        case .resolve:
            resolve(for: urlProtocol)
        case .makeReady:
            makeReady(from: urlProtocol)
        case .none:
            break
        }
    }

    /// Resolves the request in the registry (and, on Linux, the hops of the
    /// redirects it gets) and answers it, or starts producing a late answer.
    private func resolve(for urlProtocol: StubURLProtocol) {
        let request = urlProtocol.request
        var follower = RedirectFollower(route: route, isFollowing: Self.followsRedirects)
        var resolution = StubRegistry.shared.resolve(request, body: RequestBody.read(from: request), route: route, pending: self)
        while true {
            if case let .computeInline(respond, exchange) = resolution {
                guard let computed = StubRegistry.Resolution.computedInline(respond, for: exchange, on: route, pending: self) else {
                    // The scope ended while the closure ran: its failure is made
                    // here, now or when it comes.
                    let clientThread = ClientThread.current(task: urlProtocol.task)
                    if case .makeReady = delivery.withLock({ $0.inlineAnswerDropped(at: clientThread, for: urlProtocol) }) {
                        makeReady(from: urlProtocol)
                    }
                    return
                }
                resolution = computed
            }
            guard var answer = Answer(immediately: resolution) else { break }
            if let hop = follower.next(after: &answer, pending: self) {
                resolution = hop
                continue
            }
            // Not in flight, so no scope end can race: deliver before returning.
            delivery.withLock { $0.resolvedInline() }
            deliver(answer, from: urlProtocol)
            return
        }
        produceLater(resolution, following: follower, for: urlProtocol)
    }

    /// Whether redirects are followed inside the scope: on Linux, where
    /// Foundation's `wasRedirectedTo` stops the process. On Apple platforms
    /// Foundation follows them, asking the session's delegate.
    private static var followsRedirects: Bool {
        #if canImport(FoundationNetworking)
        true
        #else
        false
        #endif
    }

    /// Starts the task that produces a delayed, computed or streamed answer.
    private func produceLater(_ resolution: StubRegistry.Resolution, following follower: RedirectFollower, for urlProtocol: StubURLProtocol) {
        let clientThread = ClientThread.current(task: urlProtocol.task)
        switch delivery.withLock({ $0.answersLater(at: clientThread, for: urlProtocol) }) {
        case .startProducer:
            break
        case .makeReady:
            // The scope ended while the request was resolved: its failure is ready.
            makeReady(from: urlProtocol)
            return
        }
        let producer = Task { [self] in await produce(resolution, following: follower) }
        switch delivery.withLock({ $0.producerStarted(producer) }) {
        case .none:
            break
        case .cancel:
            // From another thread (see stop(isCancel:)).
            Task.detached { producer.cancel() }
        }
    }

    /// Produces the answer's client calls, on the producing task.
    private func produce(_ resolution: StubRegistry.Resolution, following follower: RedirectFollower) async {
        var follower = follower
        // Settled when produced, not when the client thread makes the calls.
        guard let answer = await follower.produce(resolution, for: self) else { return }
        guard case let .stream(_, playback) = answer else {
            enqueue(answer.calls)
            return
        }
        guard enqueue(answer.calls) else { return }
        guard let end = await playback.play(into: { [self] piece in enqueue([.load(piece)]) }) else { return }
        // When the scope ended first, its failure comes through abandon(with:).
        guard StubRegistry.shared.settle(self, on: route) else { return }
        switch end {
        case .finished:
            enqueue([.finish])
        case let .failed(error):
            enqueue([.fail(error)])
        }
    }

    /// Queues `calls` for the client thread unless the last call was queued
    /// already, and has them made there if loading runs; returns whether they were
    /// queued.
    @discardableResult
    private func enqueue(_ calls: [ClientCall]) -> Bool {
        switch delivery.withLock({ $0.produced(calls) }) {
        case let .schedule(clientThread):
            clientThread.schedule { [self] in makeReady(from: nil) }
            return true
        case .hold:
            return true
        case .drop:
            return false
        }
    }

    /// Fails the request with `error` because its scope ended first, after the
    /// calls already produced, and returns the task producing its answer for the
    /// registry to cancel once every request of the scope has been failed. Called
    /// by the registry, outside its lock.
    func abandon(with error: URLError) -> Task<Void, Never>? {
        switch delivery.withLock({ $0.abandoned(with: error) }) {
        case .none:
            return nil
        case let .fail(clientThread, producer):
            clientThread?.schedule { [self] in makeReady(from: nil) }
            return producer
        }
    }

    /// Makes the calls that are ready, on the client thread, unless loading was
    /// stopped; `urlProtocol` is `nil` when the calls come late.
    private func makeReady(from urlProtocol: StubURLProtocol?) {
        while true {
            switch delivery.withLock({ $0.clientThreadTurn(from: urlProtocol) }) {
            case .none:
                return
            case let .askChunkRetention(asked):
                // On the client thread, where Foundation's task registry may be read.
                let keeps = ChunkRetention.keepsEveryChunk(of: asked?.task)
                delivery.withLock { $0.learnedChunkRetention(keepsEveryChunk: keeps) }
            case let .make(calls, urlProtocol):
                deliver(calls, from: urlProtocol)
                return
            }
        }
    }

    /// Stops loading, on the client thread: a suspend leaves the ready calls to the
    /// next `startLoading()`; a cancel ends the delivery, cancels the producing
    /// task and settles the request.
    ///
    /// The task is cancelled from another thread: cancelling runs its cancellation
    /// handlers at once, and one of them (a computed response awaiting a request of
    /// its own) may wait for the very thread this runs on.
    func stop(isCancel: Bool) {
        switch delivery.withLock({ $0.stopLoading(isCancel: isCancel) }) {
        case .none:
            return
        case let .cancelAndSettle(producer):
            Task.detached { producer.cancel() }
            StubRegistry.shared.cancel(self, on: route)
        }
    }

    /// Hands `answer` to the client (the request was settled when it was resolved).
    private func deliver(_ answer: Answer, from urlProtocol: StubURLProtocol) {
        guard let client = urlProtocol.client, Self.isListening(urlProtocol) else { return }
        answer.deliver(to: client, from: urlProtocol)
    }

    /// Makes `calls` on the client.
    private func deliver(_ calls: [ClientCall], from urlProtocol: StubURLProtocol) {
        guard let client = urlProtocol.client, Self.isListening(urlProtocol) else { return }
        for call in calls {
            call.make(to: client, from: urlProtocol)
        }
    }

    /// Whether Foundation still takes client calls for the protocol's task: it
    /// crashes on calls for a task it has let go.
    private static func isListening(_ urlProtocol: StubURLProtocol) -> Bool {
        guard let state = urlProtocol.task?.state else { return true }
        return state != .canceling && state != .completed
    }
}
