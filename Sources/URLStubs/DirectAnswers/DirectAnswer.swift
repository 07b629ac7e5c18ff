#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One request a scope answers itself, without `URLSession`: the direct
/// counterpart of ``Delivery``.
///
/// The request is resolved by the same registry call as a request loaded through
/// ``StubURLProtocol`` (logged, matched, a use of its stub taken, in one critical
/// section), and its answer is the same ``Answer``, turned into what
/// `URLSession.data(for:)` returns or throws. A fixed answer is returned at once; a
/// delayed or computed one is produced by a task of its own and returned by
/// whichever comes first:
///
/// ```
///   waiting ──answer produced──────────────▶ answered
///      ├──── caller's task cancelled ──────▶ answered: URLError(.cancelled)
///      └──── scope ended (abandon) ────────▶ answered: the scope's failure
/// ```
///
/// The loser is dropped, and the producing task is cancelled unless it finished.
/// The answer and the cancellation settle the request in the registry first, and
/// count only if it was still in flight; the scope's end takes it from there, so a
/// request it reports as abandoned always gets the scope's failure.
final class DirectAnswer: PendingAnswer {
    private enum Phase {
        /// Waiting; the continuation is set once the caller suspends.
        case waiting(CheckedContinuation<Answer, Never>?, work: Task<Void, Never>?)
        /// Answered before the caller suspended.
        case answered(Answer)
        /// The answer was handed to the caller.
        case finished
    }

    private let state = Locked(Phase.waiting(nil, work: nil))
    /// Where the request is resolved: `.noScope` for a request answered by
    /// `StubScope.global`, which is one made outside any scope, exactly as
    /// `URLSession` would make it there (logged in the global log, explained as made
    /// outside a scope, computed with no scope current).
    private let route: RequestRoute

    private init(scope: StubScope) {
        route = RequestRoute(current: scope)
    }

    /// Answers `request` (whose body is `body`) in `scope`: returns the body and
    /// response a stubbed `URLSession` would, or throws its error.
    /// On the caller's actor: an answer given at once never leaves it.
    nonisolated(nonsending) static func answer(_ request: URLRequest, body: Data?, in scope: StubScope) async throws -> (Data, URLResponse) {
        guard !Task.isCancelled else {
            // As URLSession.data(for:) does on Apple platforms: a caller cancelled
            // before asking sends no request. (Foundation 6.3 on Linux still sends it.)
            throw cancellation(of: request)
        }
        switch start(request, body: body, in: scope, followingRedirects: true) {
        case let .answered(answer):
            return try answer.result()
        case let .producing(pending, resolution, follower):
            return try await pending.produce(resolution, following: follower, for: request) { await $0.whole() }.result()
        }
    }

    /// How answering a request began: answered at once, or waiting for an answer
    /// that ``produce(_:following:for:playing:)`` produces.
    enum Start {
        /// The answer, needing no waiting (nothing is in flight).
        case answered(Answer)
        /// The request is in flight in its scope until its deferred answer is produced.
        case producing(DirectAnswer, StubRegistry.Resolution, RedirectFollower)
    }

    /// Resolves `request` (whose body is `body`) in `scope`, synchronously: the
    /// first step of every direct answer, and of a request a served scope receives
    /// (which does not follow redirects: its client does).
    static func start(_ request: URLRequest, body: Data?, in scope: StubScope, followingRedirects: Bool) -> Start {
        let pending = DirectAnswer(scope: scope)
        var follower = RedirectFollower(route: pending.route, isFollowing: followingRedirects)
        var resolution = StubRegistry.shared.resolve(request, body: body, route: pending.route, pending: pending)
        while var answer = Answer(immediately: resolution) {
            guard let hop = follower.next(after: &answer, pending: pending) else {
                return .answered(answer)
            }
            resolution = hop
        }
        return .producing(pending, resolution, follower)
    }

    /// Produces a delayed, computed or streamed answer, or the failure that
    /// overtakes it; `play` plays a stream to its end (returning what it ended
    /// as, or `nil` when cancelled first) while the request is still in flight.
    func produce(
        _ resolution: StubRegistry.Resolution,
        following follower: RedirectFollower,
        for request: URLRequest,
        playing play: @escaping @Sendable (Answer) async -> Answer?
    ) async -> Answer {
        let route = self.route
        let work = Task { [self] in
            var follower = follower
            // Settled when produced, unless it is a stream: then when it ends.
            guard var answer = await follower.produce(resolution, for: self) else { return }
            if case .stream = answer {
                // When the scope ended first, its failure comes through abandon(with:).
                guard let whole = await play(answer), StubRegistry.shared.settle(self, on: route) else { return }
                answer = whole
            }
            finish(with: answer) // This task is the producer: nothing to cancel.
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { phase -> Answer? in
                    switch phase {
                    case .waiting:
                        phase = .waiting(continuation, work: work)
                        return nil
                    case let .answered(answer):
                        phase = .finished
                        return answer
                    case .finished:
                        return nil // Unreachable: only a waiting caller finishes.
                    }
                }
                if let ready {
                    work.cancel()
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: {
            // When the scope ended first, its failure comes through abandon(with:).
            guard StubRegistry.shared.cancel(self, on: route) else { return }
            finish(with: .failure(Self.cancellation(of: request)))?.cancel()
        }
    }

    /// Fails the request with `error` because its scope ended first, and returns
    /// the producing task for the registry to cancel.
    func abandon(with error: URLError) -> Task<Void, Never>? {
        finish(with: .failure(error))
    }

    /// Answers with `answer` unless the request was answered already; returns the
    /// task producing the answer when `answer` was handed to a waiting caller in its
    /// place (the caller of this decides when to cancel it).
    @discardableResult
    private func finish(with answer: Answer) -> Task<Void, Never>? {
        let waiter = state.withLock { phase -> (CheckedContinuation<Answer, Never>, Task<Void, Never>?)? in
            switch phase {
            case let .waiting(continuation?, work):
                phase = .finished
                return (continuation, work)
            case .waiting(nil, _):
                phase = .answered(answer)
                return nil
            case .answered, .finished:
                return nil
            }
        }
        guard let (continuation, work) = waiter else { return nil }
        continuation.resume(returning: answer)
        return work
    }

    /// The error `URLSession` fails a cancelled request with.
    static func cancellation(of request: URLRequest) -> URLError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: "cancelled"]
        if let url = request.url {
            info[NSURLErrorFailingURLErrorKey] = url
        }
        return URLError(.cancelled, userInfo: info)
    }
}
