extension StubRegistry.Resolution {
    /// Runs the synchronous closure of an inline computed answer now, on the
    /// calling thread, with `scope` current (so that a stub scope it reads, or a
    /// direct answer it asks for, is the request's), and returns the resolution it
    /// leads to: `.respond` with its response, or `.fail` with what it threw.
    ///
    /// An answer that needs no waiting is written down in the request log and
    /// taken out of flight here, in one critical section; a delayed or streamed
    /// response stays in flight for the task that plays it. Returns `nil` when the
    /// scope ended while the closure ran: the scope's end failed the request
    /// through ``PendingAnswer/abandon(with:)``, and the closure's answer is dropped.
    static func computedInline(
        _ respond: @Sendable (RecordedRequest) throws -> StubResponse,
        for exchange: LoggedExchange,
        on route: RequestRoute,
        pending: some PendingAnswer
    ) -> Self? {
        switch Result(catching: { try StubScope.currentBinding.withValue(route.scope) { try respond(exchange.request) } }) {
        case let .success(returned):
            let response = returned.response(forUse: 1)
            if response.isDeferred {
                return .respond(response, exchange)
            }
            let outcome = RecordedExchange.Outcome(response, method: exchange.request.method)
            guard StubRegistry.shared.settle(pending, on: route, as: outcome) else { return nil }
            return .respond(response, exchange)
        case let .failure(error):
            guard StubRegistry.shared.settle(pending, on: route, as: .failure(error)) else { return nil }
            return .fail(error)
        }
    }
}
