extension StubResponse {
    /// The same response, answered `extra` later than it would be (its own delay,
    /// if any, plus `extra`), through ``delayed(by:)``; unchanged for no `extra`.
    func delayed(adding extra: Duration?) -> StubResponse {
        guard let extra, extra > .zero else { return self }
        return delayed(by: (delay ?? .zero) + extra)
    }

    /// A stub's closure whose responses are answered `extra` later.
    static func delaying(
        _ respond: @escaping @Sendable (RecordedRequest) async throws -> StubResponse,
        by extra: Duration?
    ) -> @Sendable (RecordedRequest) async throws -> StubResponse {
        guard let extra, extra > .zero else { return respond }
        // A sequence stands for its first response (see response(forUse:)) before the delay is added.
        return { request in try await respond(request).response(forUse: 1).delayed(adding: extra) }
    }

    /// A stub's synchronous closure whose responses are answered `extra` later.
    static func delaying(
        _ respond: @escaping @Sendable (RecordedRequest) throws -> StubResponse,
        by extra: Duration?
    ) -> @Sendable (RecordedRequest) throws -> StubResponse {
        guard let extra, extra > .zero else { return respond }
        return { request in try respond(request).response(forUse: 1).delayed(adding: extra) }
    }
}
