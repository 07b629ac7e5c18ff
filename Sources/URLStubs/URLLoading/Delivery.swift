#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The life of one request inside ``StubURLProtocol``, from `startLoading()` to the
/// last client call, as a value: its phase and the client calls waiting, changed
/// only by the events below, each of which returns what is to be done.
///
/// ```
///   idle ──startLoading()──▶ resolving ──fixed answer, made before startLoading() returns──▶ finished
///                                │
///                                │ delayed, computed or streamed answer
///                                ▼
///                            starting ──▶ producing ──last call produced──▶ produced ──made on the client thread──▶ finished
///                                          │   ▲
///                                          └───┘ calls so far: made on the client thread
///
///   the scope's end:                  resolving, awaitingFailure, starting, producing ──▶ produced, its failure queued
///   the scope's end, inline closure:  resolving ──▶ awaitingFailure (its failure comes later)
///   a cancel:                         awaitingFailure, producing, produced ──▶ finished
/// ```
///
/// The value decides; ``DeliveryDriver`` acts. It keeps the value under its lock,
/// tells it each event inside one short critical section, and performs the action
/// the event returned after unlocking (resolving, starting the producing task,
/// scheduling work on the client thread, making client calls, cancelling,
/// settling in the registry). An event that cannot happen in the phase it meets
/// is a broken invariant, and stops the process with a message naming both.
///
/// - A fixed answer is resolved in the registry and handed to the client inside
///   `startLoading()`, on the thread Foundation called it on: no task, no hop
///   (``resolvedInline()``). So is an answer computed by a synchronous closure,
///   run there in the request's scope (in flight while it runs, so that the
///   scope's end can still fail it: ``inlineAnswerDropped(at:for:)``).
/// - A delayed, computed or streamed answer is produced by a Swift task started
///   there (``answersLater(at:for:)``, ``producerStarted(_:)``), as ``ClientCall``s:
///   the response, pieces of its body as a stream plays, the finish or the
///   failure (``produced(_:)``). Each is queued and taken to that thread (see
///   ``ClientThread``), where it is made only while loading was not stopped
///   (``clientThreadTurn(from:)``). The request is settled (leaves its scope's
///   in-flight list) the moment its last call is produced.
/// - Where Foundation keeps only the last piece of a body (`data(for:)` and
///   completion handlers on Linux, see ``ChunkRetention``), the pieces wait in the
///   queue and are delivered joined, with the finish.
/// - A suspend keeps the calls queued; the next `startLoading()` makes them. A
///   cancel ends the delivery: the producing task is cancelled, the request leaves
///   its scope's in-flight list, and nothing reaches the client again
///   (``stopLoading(isCancel:)``).
/// - The scope ending first fails the request through ``abandoned(with:)`` (see
///   ``PendingAnswer``), after whatever part of a stream was produced. Whichever
///   removes the request from the in-flight list, the producing task or the
///   scope's end, decides how it ends: calls produced too late are dropped, and an
///   answer produced in time is never replaced by a failure.
///
/// `startLoading()` and `stopLoading()` never overlap (Foundation calls both on
/// one thread, the protocol's own state relies on it), and resolving runs inside
/// `startLoading()`: so neither comes while the request is resolved or its
/// producing task is being stored. The producing task, the scope's end and (on a
/// queue of the delivery's own) the client thread come from other threads, at any
/// time.
struct Delivery {
    /// Where the delivery is.
    enum Phase {
        /// Created; `startLoading()` was not called yet.
        case idle
        /// `startLoading()` is resolving the request in the registry (and running
        /// an inline closure, or following redirects); it looks at the phase again
        /// when it is done.
        case resolving
        /// The scope's end took the request while `startLoading()` ran its inline
        /// closure, and is failing it: the failure is made on `ClientThread` when
        /// it comes. (The scope's end takes its requests under the registry's lock
        /// and fails them after, so `startLoading()` may learn that the answer was
        /// dropped before the failure arrives.)
        case awaitingFailure(ClientThread)
        /// A Swift task was started to produce the answer, to be made on
        /// `ClientThread`; `startLoading()` has not stored it yet. It may already
        /// have produced calls.
        case starting(ClientThread)
        /// The Swift task is producing the answer, to be made on `ClientThread`;
        /// `ready` holds the calls it produced that the client thread has not
        /// made yet.
        case producing(Task<Void, Never>, ClientThread)
        /// Every call was produced, the last one last (or the scope's end queued
        /// its failure); `ready` holds those the client thread has not made yet.
        case produced
        /// The last call was made, or the request was cancelled: nothing more
        /// reaches the client.
        case finished
    }

    /// Where the delivery is.
    private(set) var phase = Phase.idle
    /// The calls produced that the client thread has not made yet, in order.
    /// Kept out of `phase` so that appending is done in place: a stream of many
    /// pieces queues each in constant time, not by copying those before.
    private(set) var ready: [ClientCall] = []
    /// How many of `ready` are pieces of a body.
    private var readyPieces = 0
    /// Whether loading runs: between `startLoading()` and `stopLoading()`.
    private(set) var isLoading = false
    /// The protocol late calls are made from, recorded with the client thread and
    /// held weakly: Foundation owns it until its task completes.
    private weak var urlProtocol: StubURLProtocol?
    /// Whether the client keeps every piece of a body; `nil` until a stream asks.
    private(set) var keepsEveryChunk: Bool?

    // MARK: Events on the client thread, from startLoading()

    /// What to do after `startLoading()`.
    enum StartAction {
        /// Resolve the request: this is the first `startLoading()`.
        case resolve
        /// Make the calls that are ready (after a suspend, or when Foundation calls
        /// again on Linux).
        case makeReady
        /// Nothing: nothing can be ready yet, or nothing more reaches the client.
        case none
    }

    /// `startLoading()` was called: loading runs.
    mutating func startLoading() -> StartAction {
        switch phase {
        case .idle:
            isLoading = true
            phase = .resolving
            return .resolve
        case .producing, .produced:
            isLoading = true
            return .makeReady
        case .awaitingFailure, .finished:
            isLoading = true
            return .none
        case .resolving, .starting:
            impossible("startLoading()")
        }
    }

    /// `startLoading()` resolved the request to an answer it delivers at once, not
    /// in flight, so that no scope's end can race it: nothing more comes.
    mutating func resolvedInline() {
        guard case .resolving = phase else { impossible("resolvedInline()") }
        phase = .finished
    }

    /// What to do after the scope's end took a request answered inline.
    enum DroppedAction {
        /// Make the calls that are ready: the scope's failure.
        case makeReady
        /// Nothing yet: the failure is made on the client thread when it comes.
        case none
    }

    /// `startLoading()` ran the request's inline closure, but the scope ended
    /// meanwhile and took the request, so its answer was dropped: the scope's
    /// failure is made instead, on `clientThread`, from `urlProtocol`.
    mutating func inlineAnswerDropped(at clientThread: ClientThread, for urlProtocol: StubURLProtocol) -> DroppedAction {
        switch phase {
        case .resolving:
            self.urlProtocol = urlProtocol
            phase = .awaitingFailure(clientThread)
            return .none
        case .produced:
            // The failure came first; startLoading() is still on the client thread.
            self.urlProtocol = urlProtocol
            return .makeReady
        case .idle, .awaitingFailure, .starting, .producing, .finished:
            impossible("inlineAnswerDropped(at:for:)")
        }
    }

    /// What to do after the request resolved to a late answer.
    enum LateAction {
        /// Start the Swift task that produces the answer.
        case startProducer
        /// Make the calls that are ready: the scope ended while the request was
        /// resolved, and its failure is queued.
        case makeReady
    }

    /// `startLoading()` resolved the request to a delayed, computed or streamed
    /// answer, to be made on `clientThread`, from `urlProtocol`.
    mutating func answersLater(at clientThread: ClientThread, for urlProtocol: StubURLProtocol) -> LateAction {
        switch phase {
        case .resolving:
            self.urlProtocol = urlProtocol
            phase = .starting(clientThread)
            return .startProducer
        case .produced:
            self.urlProtocol = urlProtocol
            return .makeReady
        case .idle, .awaitingFailure, .starting, .producing, .finished:
            impossible("answersLater(at:for:)")
        }
    }

    /// What to do with the producing task `startLoading()` just started.
    enum ProducerAction {
        /// Nothing: it is stored, to be cancelled by a cancel or the scope's end.
        case none
        /// Cancel it: it produced every call already, or the scope's end failed
        /// the request before it was stored, and nobody else will.
        case cancel
    }

    /// `startLoading()` started `producer`, the task producing the answer.
    mutating func producerStarted(_ producer: Task<Void, Never>) -> ProducerAction {
        switch phase {
        case let .starting(clientThread):
            phase = .producing(producer, clientThread)
            return .none
        case .produced, .finished:
            return .cancel
        case .idle, .resolving, .awaitingFailure, .producing:
            impossible("producerStarted(_:)")
        }
    }

    // MARK: Events from the producing task and the scope's end

    /// What to do with calls the producing task produced.
    enum ProducedAction {
        /// They are queued: have the client thread make the ready calls.
        case schedule(ClientThread)
        /// They are queued, with nothing to make yet: loading is stopped, or only
        /// pieces of a body wait, for a client that takes them joined with the
        /// finish.
        case hold
        /// They are dropped, and the producing task stops: the scope's end failed
        /// the request first, or it was cancelled.
        case drop
    }

    /// The producing task produced `calls` (the last of them last, if it is).
    mutating func produced(_ calls: [ClientCall]) -> ProducedAction {
        let clientThread: ClientThread
        switch phase {
        case let .starting(thread), let .producing(_, thread):
            clientThread = thread
        case .produced, .finished:
            return .drop
        case .idle, .resolving, .awaitingFailure:
            impossible("produced(_:)")
        }
        append(calls)
        if calls.last?.isLast == true {
            phase = .produced
        } else if keepsEveryChunk == false, ready.count == readyPieces {
            // Only pieces wait: no trip to the client thread until the finish.
            return .hold
        }
        return isLoading ? .schedule(clientThread) : .hold
    }

    /// What to do after the scope's end failed the request.
    enum AbandonAction {
        /// Nothing: `startLoading()`, still resolving, makes the failure, or the
        /// delivery ended already.
        case none
        /// Have the client thread make the failure (`nil`: loading is stopped,
        /// the next `startLoading()` makes it), and hand the producing task, if
        /// one was stored, to the registry to cancel.
        case fail(scheduleOn: ClientThread?, producer: Task<Void, Never>?)
    }

    /// The request's scope ended first and failed it with `error`, after the calls
    /// already produced.
    mutating func abandoned(with error: URLError) -> AbandonAction {
        let clientThread: ClientThread
        let producer: Task<Void, Never>?
        switch phase {
        case .resolving:
            phase = .produced
            append([.fail(error)])
            return .none
        case let .awaitingFailure(thread), let .starting(thread):
            (clientThread, producer) = (thread, nil)
        case let .producing(task, thread):
            (clientThread, producer) = (thread, task)
        case .finished:
            // A cancel ended it while the scope's end was taking it.
            return .none
        case .idle, .produced:
            // Only a request in flight is abandoned, and a produced one was
            // settled by its producer or abandoned already.
            impossible("abandoned(with:)")
        }
        phase = .produced
        append([.fail(error)])
        return .fail(scheduleOn: isLoading ? clientThread : nil, producer: producer)
    }

    // MARK: Events on the client thread, late

    /// What the client thread does with the ready calls.
    enum TurnAction {
        /// Nothing: none are ready, loading is stopped, or the delivery ended.
        case none
        /// Ask Foundation whether the client of `urlProtocol`'s task keeps every
        /// piece of a body (``ChunkRetention``), then take a turn again.
        case askChunkRetention(StubURLProtocol?)
        /// Make these calls from `urlProtocol`.
        case make([ClientCall], StubURLProtocol)
    }

    /// The client thread takes the ready calls, from `urlProtocol` (`nil` when
    /// they come late: the one recorded with the client thread).
    mutating func clientThreadTurn(from urlProtocol: StubURLProtocol?) -> TurnAction {
        switch phase {
        case .starting, .producing, .produced:
            break
        case .finished:
            return .none
        case .idle, .resolving, .awaitingFailure:
            impossible("clientThreadTurn(from:)")
        }
        guard isLoading else { return .none }
        let urlProtocol = urlProtocol ?? self.urlProtocol
        let calls: [ClientCall]
        if case .produced = phase {
            if keepsEveryChunk == nil, readyPieces > 1 {
                return .askChunkRetention(urlProtocol)
            }
            phase = .finished
            calls = keepsEveryChunk == false ? takeReady().joiningPieces() : takeReady()
        } else if let keepsEveryChunk {
            // Where the client keeps only one piece, pieces wait for the finish.
            calls = keepsEveryChunk ? takeReady() : takeReadyBeforeFirstPiece()
        } else if readyPieces == 0 {
            calls = takeReady()
        } else {
            // Only a stream queues a piece of a body before its last call.
            return .askChunkRetention(urlProtocol)
        }
        guard let urlProtocol, !calls.isEmpty else { return .none }
        return .make(calls, urlProtocol)
    }

    /// Foundation answered whether the client keeps every piece of a body.
    mutating func learnedChunkRetention(keepsEveryChunk: Bool) {
        switch phase {
        case .starting, .producing, .produced, .finished:
            self.keepsEveryChunk = keepsEveryChunk
        case .idle, .resolving, .awaitingFailure:
            impossible("learnedChunkRetention(keepsEveryChunk:)")
        }
    }

    /// What to do after `stopLoading()`.
    enum StopAction {
        /// Nothing more.
        case none
        /// Cancel the producing task (from another thread, see
        /// ``DeliveryDriver/stop(isCancel:)``) and settle the request in the registry.
        case cancelAndSettle(Task<Void, Never>)
    }

    /// `stopLoading()` was called: for a suspend (`isCancel` false) loading stops
    /// and the ready calls wait for the next `startLoading()`; a cancel ends the
    /// delivery.
    mutating func stopLoading(isCancel: Bool) -> StopAction {
        let producer: Task<Void, Never>?
        switch phase {
        case let .producing(task, _):
            producer = task
        case .awaitingFailure, .produced:
            // Settled already: by the producer, or by the scope's end that took it.
            producer = nil
        case .finished:
            isLoading = false
            return .none
        case .idle, .resolving, .starting:
            impossible(isCancel ? "stopLoading() for a cancel" : "stopLoading() for a suspend")
        }
        isLoading = false
        guard isCancel else { return .none }
        phase = .finished
        ready = []
        readyPieces = 0
        return producer.map(StopAction.cancelAndSettle) ?? .none
    }

    // MARK: The queue of ready calls

    /// Queues `calls` after those ready.
    private mutating func append(_ calls: [ClientCall]) {
        ready.append(contentsOf: calls)
        readyPieces += calls.pieceCount
    }

    /// Takes every ready call.
    private mutating func takeReady() -> [ClientCall] {
        readyPieces = 0
        defer { ready = [] }
        return ready
    }

    /// Takes the ready calls before the first piece of a body.
    private mutating func takeReadyBeforeFirstPiece() -> [ClientCall] {
        let count = ready.prefix { !$0.isPiece }.count
        guard count > 0 else { return [] }
        defer { ready.removeFirst(count) }
        return Array(ready.prefix(count))
    }

    /// Stops the process: `event` cannot happen in the current phase, so an
    /// invariant the delivery relies on is broken.
    private func impossible(_ event: String) -> Never {
        preconditionFailure("URLStubs: a delivery got \(event) in phase \(phase), which cannot happen")
    }
}

extension Delivery.Phase: CustomStringConvertible {
    /// The phase's name, for the message of an impossible transition.
    var description: String {
        switch self {
        case .idle: "idle"
        case .resolving: "resolving"
        case .awaitingFailure: "awaitingFailure"
        case .starting: "starting"
        case .producing: "producing"
        case .produced: "produced"
        case .finished: "finished"
        }
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
