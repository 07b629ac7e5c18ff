#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The life of one request inside ``StubURLProtocol``, from `startLoading()` to the
/// last client call: a state machine whose every transition takes one lock.
///
/// ```
///              startLoading()          fixed answer: delivered before startLoading() returns
///   idle ───────────────────▶ resolving ───────────────────────────────────────────▶ finished
///                                 │ delayed, computed or streamed answer
///                                 ▼
///                             producing ──last call produced──▶ produced ──on the client thread──▶ finished
///                              │   ▲ calls so far: on the client thread │
///                              └───┘                                    │
///                                 └──── cancelled ──────────────────────┴────────────────────────▶ finished
/// ```
///
/// - A fixed answer is resolved in the registry and handed to the client inside
///   `startLoading()`, on the thread Foundation called it on: no task, no hop. So
///   is an answer computed by a synchronous closure, run there in the request's
///   scope (in flight while it runs, so that the scope's end can still fail it).
/// - A delayed, computed or streamed answer is produced by a Swift task started
///   there, as ``ClientCall``s: the response, pieces of its body as a stream plays,
///   the finish or the failure. Each is queued and taken to that thread (see
///   ``ClientThread``), where it is made only while loading was not stopped. The
///   request is settled (leaves its scope's in-flight list) the moment its last
///   call is produced.
/// - Where Foundation keeps only the last piece of a body (`data(for:)` and
///   completion handlers on Linux, see ``ChunkRetention``), the pieces wait in the
///   queue and are delivered joined, with the finish.
/// - A suspend keeps the calls queued; the next `startLoading()` makes them. A
///   cancel ends the delivery: the producing task is cancelled, the request leaves
///   its scope's in-flight list, and nothing reaches the client again.
/// - The scope ending first fails the request through ``abandon(with:)`` (see
///   ``PendingAnswer``), after whatever part of a stream was produced. Whichever
///   removes the request from the in-flight list, the producing task or the
///   scope's end, decides how it ends: calls produced too late are dropped, and an
///   answer produced in time is never replaced by a failure.
final class Delivery: PendingAnswer {
    /// Where the delivery is.
    enum Phase {
        /// Created; `startLoading()` was not called yet.
        case idle
        /// `startLoading()` is resolving the request in the registry.
        case resolving
        /// A Swift task (`nil` for the instant before it is stored) is producing the
        /// answer; the state's `ready` holds the calls it produced that the client
        /// thread has not made yet.
        case producing(Task<Void, Never>?)
        /// Every call was produced, the last one last; the state's `ready` holds
        /// those the client thread has not made yet.
        case produced
        /// The last call was made, or the request was cancelled: nothing more
        /// reaches the client.
        case finished
    }

    fileprivate struct State {
        var phase = Phase.idle
        /// The calls produced that the client thread has not made yet, in order.
        /// Kept out of `phase` so that appending is done in place: a stream of
        /// many pieces queues each in constant time, not by copying those before.
        var ready: [ClientCall] = []
        /// How many of `ready` are pieces of a body.
        var readyPieces = 0
        /// Whether loading runs: between `startLoading()` and `stopLoading()`.
        var isLoading = false
        /// Where late calls are made, recorded by `startLoading()` before any
        /// late call is produced.
        var clientThread: ClientThread?
        /// The protocol late calls are made from, held weakly: Foundation owns it
        /// until its task completes.
        weak var urlProtocol: StubURLProtocol?
        /// Whether the client keeps every piece of a body; `nil` until a stream
        /// asks.
        var keepsEveryChunk: Bool?
    }

    private let state = Locked(State())
    /// The scope the request was resumed in, `nil` outside any.
    let scope: StubScope?

    init(scope: StubScope?) {
        self.scope = scope
    }

    /// What `startLoading()` does after the state changed.
    private enum StartAction {
        case resolve
        case deliverReady
        case wait
    }

    /// Starts loading, on the thread Foundation called `startLoading()` on: resolves
    /// the request and answers it there, or starts producing a late answer, or
    /// (after a suspend, or when Foundation calls again on Linux) makes the calls
    /// that are ready.
    func start(_ urlProtocol: StubURLProtocol) {
        let action = state.withLock { state -> StartAction in
            state.isLoading = true
            switch state.phase {
            case .idle:
                state.phase = .resolving
                return .resolve
            case .producing, .produced:
                return .deliverReady
            case .resolving, .finished:
                return .wait
            }
        }
        switch action {
        case .resolve:
            resolve(for: urlProtocol)
        case .deliverReady:
            deliverReady(from: urlProtocol)
        case .wait:
            break
        }
    }

    /// Resolves the request in the registry (and, on Linux, the hops of the
    /// redirects it gets) and answers it, or starts producing a late answer.
    private func resolve(for urlProtocol: StubURLProtocol) {
        let request = urlProtocol.request
        var follower = RedirectFollower(scope: scope, isFollowing: Self.followsRedirects)
        var resolution = StubRegistry.shared.resolve(request, body: RequestBody.read(from: request), scope: scope, pending: self)
        while true {
            if case let .computeInline(respond, exchange) = resolution {
                guard let computed = StubRegistry.Resolution.computedInline(respond, for: exchange, in: scope, pending: self) else {
                    // The scope ended while the closure ran: its failure is ready.
                    deliverReady(from: urlProtocol)
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
            state.withLock { $0.phase = .finished }
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
        let isStillResolving = state.withLock { state -> Bool in
            state.clientThread = clientThread
            state.urlProtocol = urlProtocol
            guard case .resolving = state.phase else { return false }
            state.phase = .producing(nil)
            return true
        }
        guard isStillResolving else {
            // The scope ended while the request was resolved: its failure is ready.
            deliverReady(from: urlProtocol)
            return
        }
        let work = Task { [self] in await produce(resolution, following: follower) }
        let isStored = state.withLock { state -> Bool in
            guard case .producing(nil) = state.phase else { return false }
            state.phase = .producing(work)
            return true
        }
        if !isStored {
            // Produced already, or failed by the scope's end before the task was
            // stored: nobody else cancels it. From another thread (see stop(isCancel:)).
            Task.detached { work.cancel() }
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
        guard StubRegistry.shared.settle(self, in: scope) else { return }
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
        let queued = state.withLock { state -> ClientThread?? in
            guard case .producing = state.phase else { return nil }
            state.append(calls)
            if calls.last?.isLast == true {
                state.phase = .produced
            } else if state.keepsEveryChunk == false, state.ready.count == state.readyPieces {
                // Only pieces wait, for a client that takes them joined with the
                // finish: nothing to make until then, so no trip to the client thread.
                return .some(nil)
            }
            return .some(state.isLoading ? state.clientThread : nil)
        }
        guard let queued else { return false }
        queued?.schedule { [self] in deliverReady(from: nil) }
        return true
    }

    /// Fails the request with `error` because its scope ended first, after the
    /// calls already produced, and returns the task producing its answer for the
    /// registry to cancel once every request of the scope has been failed. Called
    /// by the registry, outside its lock.
    func abandon(with error: URLError) -> Task<Void, Never>? {
        let abandoned = state.withLock { state -> (ClientThread?, Task<Void, Never>?)? in
            switch state.phase {
            case .resolving:
                // startLoading() is still in produceLater() or running an inline
                // closure: it delivers.
                state.phase = .produced
                state.append([.fail(error)])
                return nil
            case let .producing(work):
                state.phase = .produced
                state.append([.fail(error)])
                return (state.isLoading ? state.clientThread : nil, work)
            case .idle, .produced, .finished:
                return nil
            }
        }
        guard let (clientThread, work) = abandoned else { return nil }
        clientThread?.schedule { [self] in deliverReady(from: nil) }
        return work
    }

    /// What the client thread does with the ready calls.
    private enum Step {
        /// Nothing: none are ready, or loading is stopped.
        case none
        /// Ask Foundation whether the client keeps every piece of a body, then look again.
        case ask(URLSessionTask?)
        /// Make these calls.
        case make([ClientCall], StubURLProtocol?)
    }

    /// Makes the calls that are ready, on the client thread, unless loading was
    /// stopped; `urlProtocol` is `nil` when the calls come late.
    private func deliverReady(from urlProtocol: StubURLProtocol?) {
        while true {
            let step = state.withLock { state -> Step in
                guard state.isLoading else { return .none }
                let keeps = state.keepsEveryChunk
                switch state.phase {
                case .producing:
                    guard let keeps else {
                        // Only a stream queues a piece of a body before its last call.
                        guard state.readyPieces == 0 else { return .ask(state.urlProtocol?.task) }
                        return .make(state.takeReady(), urlProtocol ?? state.urlProtocol)
                    }
                    // Where the client keeps only one piece, pieces wait for the finish.
                    let now = keeps ? state.takeReady() : state.takeReadyBeforeFirstPiece()
                    return .make(now, urlProtocol ?? state.urlProtocol)
                case .produced:
                    if keeps == nil, state.readyPieces > 1 {
                        return .ask(state.urlProtocol?.task)
                    }
                    state.phase = .finished
                    let ready = state.takeReady()
                    return .make(keeps == false ? ready.joiningPieces() : ready, urlProtocol ?? state.urlProtocol)
                case .idle, .resolving, .finished:
                    return .none
                }
            }
            switch step {
            case .none:
                return
            case let .ask(task):
                // On the client thread, where Foundation's task registry may be read.
                let keeps = ChunkRetention.keepsEveryChunk(of: task)
                state.withLock { $0.keepsEveryChunk = keeps }
            case let .make(calls, urlProtocol):
                if let urlProtocol, !calls.isEmpty {
                    deliver(calls, from: urlProtocol)
                }
                return
            }
        }
    }

    /// Stops loading, on the client thread: a suspend leaves the ready calls to the
    /// next `startLoading()`; a cancel ends the delivery and cancels the producing
    /// task.
    ///
    /// The task is cancelled from another thread: cancelling runs its cancellation
    /// handlers at once, and one of them (a computed response awaiting a request of
    /// its own) may wait for the very thread this runs on.
    func stop(isCancel: Bool) {
        // `nil` unless the request was still waiting: then its producing task.
        let cancelled = state.withLock { state -> Task<Void, Never>?? in
            state.isLoading = false
            guard isCancel else { return nil }
            switch state.phase {
            case let .producing(work):
                state.phase = .finished
                state.ready = []
                return .some(work)
            case .idle, .resolving, .produced:
                // A produced answer is settled already: by its producer, or by the
                // scope's end that failed it.
                state.phase = .finished
                return nil
            case .finished:
                return nil
            }
        }
        guard let cancelled else { return }
        if let work = cancelled {
            Task.detached { work.cancel() }
        }
        StubRegistry.shared.settle(self, in: scope)
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

extension Delivery.State {
    /// Queues `calls` after those ready.
    mutating func append(_ calls: [ClientCall]) {
        ready.append(contentsOf: calls)
        readyPieces += calls.pieceCount
    }

    /// Takes every ready call.
    mutating func takeReady() -> [ClientCall] {
        readyPieces = 0
        defer { ready = [] }
        return ready
    }

    /// Takes the ready calls before the first piece of a body.
    mutating func takeReadyBeforeFirstPiece() -> [ClientCall] {
        let count = ready.prefix { !$0.isPiece }.count
        guard count > 0 else { return [] }
        defer { ready.removeFirst(count) }
        return Array(ready.prefix(count))
    }
}

extension [ClientCall] {
    /// How many pieces of a body the calls carry.
    var pieceCount: Int {
        reduce(0) { $0 + ($1.isPiece ? 1 : 0) }
    }

    /// The calls with every piece of the body joined into one, made just before the
    /// finish, for a client that keeps only the last piece; a failure drops them,
    /// as Foundation would.
    func joiningPieces() -> [ClientCall] {
        guard pieceCount > 1 else { return self }
        var body = Data()
        var calls: [ClientCall] = []
        for call in self {
            switch call {
            case let .load(piece):
                body.append(piece)
            case .finish:
                calls.append(.load(body))
                calls.append(call)
            default:
                calls.append(call)
            }
        }
        return calls
    }
}
