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
        case .respond, .compute, .computeInline, .passThrough:
            return nil
        }
    }

    /// Produces the answer of a deferred resolution, and writes down in the request
    /// log how the request ended: waits out the delay, or runs the stub's closure in
    /// the request's scope (so that requests it makes are answered there too) and
    /// then waits out its response's delay, or sends the request to the network.
    ///
    /// Waits are on the clock of the request's scope, and end with
    /// `URLError.timedOut` at the request's `timeoutInterval` when that comes first,
    /// as a server too slow to answer would.
    ///
    /// Returns `nil` when the calling task is cancelled first: whoever cancelled it
    /// (a stop, a cancel, or the scope's end) answers the request itself.
    static func produce(_ resolution: StubRegistry.Resolution, on route: RequestRoute) async -> Answer? {
        switch resolution {
        case let .respond(response, exchange):
            return await answer(with: response, after: response.delay, for: exchange, on: route)
        case let .compute(respond, exchange):
            let computed = await RequestTimeout(exchange).race {
                try await StubScope.currentBinding.withValue(route.scope) { try await respond(exchange.request) }
            }
            switch computed {
            case let .finished(.success(returned))?:
                let response = returned.response(forUse: 1)
                return await answer(with: response, after: response.delay, for: exchange, on: route)
            case let .finished(.failure(error))?:
                guard !Task.isCancelled else { return nil }
                StubRegistry.shared.record(.failure(error), of: exchange)
                return .failure(error)
            case .timedOut?:
                return timedOut(exchange)
            case nil:
                return nil
            }
        case let .computeInline(respond, exchange):
            // Where no thread waits for it (a direct answer, a redirect's hop
            // produced late): run here, on the producing task.
            switch Result(catching: { try StubScope.currentBinding.withValue(route.scope) { try respond(exchange.request) } }) {
            case let .success(returned):
                let response = returned.response(forUse: 1)
                return await answer(with: response, after: response.delay, for: exchange, on: route)
            case let .failure(error):
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

    /// The answer `response` gives the logged request once `delay` has passed (or
    /// the request timed out first), written down in its log (a stream writes its
    /// outcome when it ends); `nil` when cancelled first.
    private static func answer(with response: StubResponse, after delay: Duration?, for exchange: LoggedExchange, on route: RequestRoute) async -> Answer? {
        switch await RequestTimeout(exchange).wait(delay) {
        case .elapsed:
            break
        case .timedOut:
            return timedOut(exchange)
        case .cancelled:
            return nil
        }
        let answer = Answer(response, for: exchange.request, exchange: exchange, route: route)
        if case .stream = answer {
            return answer
        }
        StubRegistry.shared.record(RecordedExchange.Outcome(response, method: exchange.request.method), of: exchange)
        return answer
    }

    /// The failure of a request that timed out, written down in its log.
    private static func timedOut(_ exchange: LoggedExchange) -> Answer {
        let error = RequestTimeout(exchange).error
        StubRegistry.shared.record(.failure(error), of: exchange)
        return .failure(error)
    }
}
