#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A request's `timeoutInterval`, on the clock of its scope: a wait for its answer
/// that would last past it ends there with `URLError.timedOut`.
///
/// The interval counts from the moment the request arrived; between the pieces of
/// a streamed body it counts from the last piece, as an idle connection's timeout
/// does. A request whose `timeoutInterval` is zero, negative or not finite never
/// times out.
struct RequestTimeout {
    /// How a wait ended.
    enum WaitEnd {
        case elapsed
        case timedOut
        case cancelled
    }

    /// How a raced operation ended.
    enum RaceEnd<Value: Sendable>: Sendable {
        case finished(Value)
        case timedOut
    }

    let exchange: LoggedExchange

    init(_ exchange: LoggedExchange) {
        self.exchange = exchange
    }

    /// The request's timeout interval, or `nil` when it has none.
    var interval: Duration? {
        let seconds = exchange.request.urlRequest.timeoutInterval
        guard seconds > 0, seconds.isFinite else { return nil }
        return .nanoseconds(Int64(min(seconds, 1e9) * 1e9))
    }

    /// The time left before the request times out, counted from its arrival.
    private var remaining: Duration? {
        interval.map { max($0 - (exchange.clock.elapsed() - exchange.startedAt), .zero) }
    }

    /// Waits `delay` (none for `nil`; a delay of `.seconds(.max)` or more is one
    /// that never ends), or until the request times out if that comes first.
    func wait(_ delay: Duration?) async -> WaitEnd {
        await wait(delay, limit: remaining)
    }

    /// Waits `delay` between two pieces of a stream, or until the request times out,
    /// idle since the last piece (`lastActivity` on the scope's clock; by default,
    /// now), if that comes first.
    func waitIdle(_ delay: Duration?, since lastActivity: Duration? = nil) async -> WaitEnd {
        let idleFor = lastActivity.map { max(exchange.clock.elapsed() - $0, .zero) } ?? .zero
        return await wait(delay, limit: interval.map { max($0 - idleFor, .zero) })
    }

    private func wait(_ delay: Duration?, limit: Duration?) async -> WaitEnd {
        guard let delay, delay > .zero else { return Task.isCancelled ? .cancelled : .elapsed }
        let isEndless = delay >= .seconds(Int64.max)
        if let limit, isEndless || delay > limit {
            return await exchange.clock.sleep(limit) ? .timedOut : .cancelled
        }
        if isEndless {
            await ScopeClock.untilCancelled()
            return .cancelled
        }
        return await exchange.clock.sleep(delay) ? .elapsed : .cancelled
    }

    /// Runs `operation` until it finishes or the request times out, whichever comes
    /// first (the loser is cancelled, and not waited for: see
    /// ``firstToEnd(_:_:whenCancelled:)``); `nil` when the calling task is cancelled
    /// first.
    func race<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) async -> RaceEnd<Result<Value, any Error>>? {
        guard let interval else {
            let result = await Result { try await operation() }
            return Task.isCancelled ? nil : .finished(result)
        }
        let clock = exchange.clock
        let deadline = exchange.startedAt + interval
        let end: RaceEnd<Result<Value, any Error>>? = await firstToEnd({ .finished(await Result { try await operation() }) }, { await clock.watch(deadline) ? .timedOut : nil }, whenCancelled: nil)
        return Task.isCancelled ? nil : end
    }

    /// Runs `operation` until it finishes or the request times out idle, whichever
    /// comes first (the loser is cancelled, and not waited for): idle once `interval` has passed on the
    /// scope's clock since `lastActivity` (read afresh at each check), as an idle
    /// connection's timer restarts with each piece; `nil` when the calling task is
    /// cancelled first. The timeout is watched (see ``ScopeClock/watch``), not slept.
    func raceIdle<Value: Sendable>(since lastActivity: @escaping @Sendable () -> Duration, _ operation: @escaping @Sendable () async -> Value) async -> RaceEnd<Value>? {
        guard let interval else {
            let value = await operation()
            return Task.isCancelled ? nil : .finished(value)
        }
        let clock = exchange.clock
        let end: RaceEnd<Value>? = await firstToEnd({ .finished(await operation()) }, {
            while true {
                let deadline = lastActivity() + interval
                guard clock.elapsed() < deadline else { return .timedOut }
                guard await clock.watch(deadline) else { return nil }
            }
        }, whenCancelled: nil)
        return Task.isCancelled ? nil : end
    }

    /// The error a request that timed out fails with.
    var error: URLError {
        let request = exchange.request
        return StubFailure.error(FailureMessages.timedOut(request, after: interval ?? .zero), url: request.url, code: .timedOut)
    }
}
