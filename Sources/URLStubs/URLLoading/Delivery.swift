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
///                                 │ delayed or computed answer
///                                 ▼
///                             producing ──answer ready──▶ produced ──on the client thread──▶ finished
///                                 │                          │
///                                 └──── cancelled ───────────┴────────────────────────────▶ finished
/// ```
///
/// - A fixed answer is resolved in the registry and handed to the client inside
///   `startLoading()`, on the thread Foundation called it on: no task, no hop.
/// - A delayed or computed answer is produced by a Swift task started there. The
///   request is settled (leaves its scope's in-flight list) the moment its answer is
///   produced; the answer then goes back to that thread (see ``ClientThread``) and is
///   delivered only if loading was not stopped in the meantime.
/// - A suspend keeps the answer being produced; the next `startLoading()` delivers
///   it. A cancel ends the delivery: the producing task is cancelled, the request
///   leaves its scope's in-flight list, and nothing reaches the client again.
/// - The scope ending first fails the request through ``abandon(with:)`` (see
///   ``PendingAnswer``). Whichever removes the request from the in-flight list, the
///   producing task or the scope's end, decides its outcome: an answer produced too
///   late is dropped, and one produced in time is never replaced by a failure.
final class Delivery: PendingAnswer {
    /// Where the delivery is.
    enum Phase {
        /// Created; `startLoading()` was not called yet.
        case idle
        /// `startLoading()` is resolving the request in the registry.
        case resolving
        /// A Swift task is producing a delayed or computed answer.
        case producing(Task<Void, Never>?)
        /// The answer is ready and waits for the client thread.
        case produced(Answer)
        /// The answer was delivered, or the request was cancelled: nothing more
        /// reaches the client.
        case finished
    }

    private struct State {
        var phase = Phase.idle
        /// Whether loading runs: between `startLoading()` and `stopLoading()`.
        var isLoading = false
        /// Where late answers go, recorded by `startLoading()`.
        var clientThread = ClientThread.unknown
        /// The protocol a late answer is delivered from, held weakly: Foundation
        /// owns it until its task completes.
        weak var urlProtocol: StubURLProtocol?
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
        case deliver(Answer)
        case wait
    }

    /// Starts loading, on the thread Foundation called `startLoading()` on: resolves
    /// the request and answers it there, or starts producing a late answer, or
    /// (after a suspend, or when Foundation calls again on Linux) delivers the
    /// answer that is ready.
    func start(_ urlProtocol: StubURLProtocol) {
        let action = state.withLock { state -> StartAction in
            state.isLoading = true
            switch state.phase {
            case .idle:
                state.phase = .resolving
                return .resolve
            case let .produced(answer):
                state.phase = .finished
                return .deliver(answer)
            case .resolving, .producing, .finished:
                return .wait
            }
        }
        switch action {
        case .resolve:
            resolve(for: urlProtocol)
        case let .deliver(answer):
            deliver(answer, from: urlProtocol)
        case .wait:
            break
        }
    }

    /// Resolves the request in the registry and answers it, or starts producing a
    /// late answer.
    private func resolve(for urlProtocol: StubURLProtocol) {
        let request = urlProtocol.request
        let resolution = StubRegistry.shared.resolve(request, body: RequestBody.read(from: request), scope: scope, pending: self)
        guard let answer = Answer(immediately: resolution) else {
            produceLater(resolution, for: urlProtocol)
            return
        }
        // Not in flight, so no scope end can race: deliver before returning.
        state.withLock { $0.phase = .finished }
        deliver(answer, from: urlProtocol)
    }

    /// Starts the task that produces a delayed or computed answer.
    private func produceLater(_ resolution: StubRegistry.Resolution, for urlProtocol: StubURLProtocol) {
        let clientThread = ClientThread.current(task: urlProtocol.task)
        let scope = self.scope
        let work = Task { [self] in
            guard let answer = await Answer.produce(resolution, in: scope) else { return }
            // Settled now, not when the client thread takes the answer; when the scope
            // ended first, its failure comes through abandon(with:) instead.
            guard StubRegistry.shared.settle(self, in: scope) else { return }
            complete(with: answer)
        }
        let readyAnswer = state.withLock { state -> Answer? in
            state.clientThread = clientThread
            state.urlProtocol = urlProtocol
            switch state.phase {
            case .resolving:
                state.phase = .producing(work)
                return nil
            case let .produced(answer):
                // Ready (or abandoned by the scope) before this returned: we are on
                // the client thread already.
                state.phase = .finished
                return answer
            case .idle, .producing, .finished:
                return nil
            }
        }
        if let readyAnswer {
            work.cancel() // Done already, or producing an answer nobody will take.
            deliver(readyAnswer, from: urlProtocol)
        }
    }

    /// Records `answer` unless there is one, and has it delivered on the client
    /// thread if loading runs; returns the task that was producing an answer, if
    /// `answer` replaced that answer (the caller decides when to cancel it).
    @discardableResult
    private func complete(with answer: Answer) -> Task<Void, Never>? {
        let recorded = state.withLock { state -> (ClientThread?, Task<Void, Never>?)? in
            switch state.phase {
            case .resolving:
                // startLoading() is still in produceLater(): it delivers.
                state.phase = .produced(answer)
                return nil
            case let .producing(work):
                state.phase = .produced(answer)
                return (state.isLoading ? state.clientThread : nil, work)
            case .idle, .produced, .finished:
                return nil
            }
        }
        guard let (clientThread, work) = recorded else { return nil }
        clientThread?.schedule { [self] in deliverIfLoading() }
        return work
    }

    /// Fails the request with `error` because its scope ended first, and returns the
    /// task producing its answer, for the registry to cancel once every request of
    /// the scope has been failed. Called by the registry, outside its lock.
    func abandon(with error: URLError) -> Task<Void, Never>? {
        complete(with: .failure(error))
    }

    /// Delivers the ready answer, on the client thread, unless loading was stopped.
    private func deliverIfLoading() {
        let ready = state.withLock { state -> (Answer, StubURLProtocol?)? in
            guard state.isLoading, case let .produced(answer) = state.phase else { return nil }
            state.phase = .finished
            return (answer, state.urlProtocol)
        }
        guard let (ready, urlProtocol) = ready, let urlProtocol else { return }
        deliver(ready, from: urlProtocol)
    }

    /// Stops loading, on the client thread: a suspend leaves the answer to the next
    /// `startLoading()`; a cancel ends the delivery and cancels the producing task.
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

    /// Hands `answer` to the client (the request was settled when it was produced).
    private func deliver(_ answer: Answer, from urlProtocol: StubURLProtocol) {
        guard let client = urlProtocol.client else { return }
        if let state = urlProtocol.task?.state, state == .canceling || state == .completed {
            return // Foundation crashes on client calls for a task it has let go.
        }
        answer.deliver(to: client, from: urlProtocol)
    }
}
