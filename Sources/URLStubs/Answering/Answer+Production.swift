#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension Answer {
    /// The answer of a resolution that needs no waiting (a failure, or a response
    /// without a delay whose body is whole); `nil` for a deferred one, which ``produce(_:in:)`` produces.
    init?(immediately resolution: StubRegistry.Resolution) {
        switch resolution {
        case let .fail(error):
            self = .failure(error)
        case let .respond(response, exchange) where !response.isDeferred:
            self.init(response, for: exchange.request)
        case .respond, .compute, .passThrough:
            return nil
        }
    }

    /// Produces the answer of a deferred resolution, and writes down in the request
    /// log how the request ended: waits out the delay, or runs the stub's closure in
    /// the request's scope (so that requests it makes are answered there too) and
    /// then waits out its response's delay, or sends the request to the network.
    ///
    /// Returns `nil` when the calling task is cancelled first: whoever cancelled it
    /// (a stop, a cancel, or the scope's end) answers the request itself.
    static func produce(_ resolution: StubRegistry.Resolution, in scope: StubScope?) async -> Answer? {
        switch resolution {
        case let .respond(response, exchange):
            guard await sleep(response.delay) else { return nil }
            return answer(with: response, for: exchange, in: scope)
        case let .compute(respond, exchange):
            do {
                let response = try await StubScope.currentBinding.withValue(scope) { try await respond(exchange.request) }
                guard await sleep(response.delay) else { return nil }
                return answer(with: response, for: exchange, in: scope)
            } catch {
                guard !Task.isCancelled else { return nil }
                StubRegistry.shared.record(.failure(error), of: exchange)
                return .failure(error)
            }
        case let .passThrough(exchange):
            let live = await LiveRequest.send(exchange.request)
            guard !Task.isCancelled else { return nil }
            StubRegistry.shared.record(live.outcome, of: exchange)
            return live.answer
        case let .fail(error):
            return .failure(error)
        }
    }

    /// The answer `response` gives the logged request, written down in its log (a
    /// stream writes its outcome when it ends).
    private static func answer(with response: StubResponse, for exchange: LoggedExchange, in scope: StubScope?) -> Answer {
        let answer = Answer(response, for: exchange.request, exchange: exchange, scope: scope)
        if case .stream = answer {
            return answer
        }
        StubRegistry.shared.record(RecordedExchange.Outcome(response, method: exchange.request.method), of: exchange)
        return answer
    }

    /// Waits `delay`; returns `false` when cancelled first.
    private static func sleep(_ delay: Duration?) async -> Bool {
        guard let delay else { return !Task.isCancelled }
        return await sleepUnlessCancelled(for: delay)
    }
}
