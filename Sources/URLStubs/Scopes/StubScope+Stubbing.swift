/// Registering and removing stubs.
extension StubScope {
    /// Answers the requests that match `pattern` with `response`.
    ///
    /// Among several stubs that match a request, the one registered last wins, and a
    /// stub of this scope wins over the stubs of enclosing scopes and of the global
    /// scope. A malformed pattern or a response that cannot be delivered does not
    /// crash: it is reported when the scope ends, at this call's location, and a
    /// request that the refused stub matches fails at once with the reason.
    ///
    /// - Parameters:
    ///   - pattern: Which requests to answer, such as `.get("https://api.example.com/users/{id}")`.
    ///   - response: What to answer, such as `.json(user)` or `.failure(.timedOut)`.
    ///   - times: How many requests the stub must and may answer; by default any number.
    ///   - condition: The state a scenario must be in for the stub to match, such
    ///     as `cart.is("empty")`; by default none.
    ///   - transition: The state the stub moves a scenario to when it answers a
    ///     request, such as `cart.transition(to: "filled")`; by default none.
    ///   - fileID: The file of the call, for reports; leave it to its default.
    ///   - filePath: The path of that file, for reports; leave it to its default.
    ///   - line: The line of the call, for reports; leave it to its default.
    ///   - column: The column of the call, for reports; leave it to its default.
    /// - Returns: A handle to query or remove the stub.
    @discardableResult
    nonisolated(nonsending) public func stub(
        _ pattern: RequestPattern,
        with response: StubResponse,
        times: StubExpectation = .anyNumber,
        when condition: StubScenario.Condition? = nil,
        then transition: StubScenario.Transition? = nil,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async -> Stub {
        let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        return register(pattern, source: .fixed(response), times: times, when: condition, then: transition, location: location)
    }

    /// Answers the requests that match `pattern` with the response `respond` computes
    /// from each request, with a closure that may suspend.
    ///
    /// Swift picks this form for a closure that contains `await`; a closure without
    /// one gets the synchronous form of this method, whose closure runs inside the
    /// URL protocol's `startLoading()` with no task of its own, and answers faster.
    ///
    /// The closure runs on a task of its own for each request, in the request's
    /// scope, may suspend, and may throw: a thrown error fails the request with
    /// that error. If the scope ends before the closure returns, the request fails
    /// and the closure's task is cancelled; a request's `timeoutInterval` passing
    /// first fails it with `URLError.timedOut` and cancels the task too.
    ///
    /// With a `condition`, the stub matches only while the scenario is in that
    /// state; with a `transition`, it moves the scenario when it takes a request,
    /// before the closure runs. A response it returns with a delay, or a stream,
    /// is played as it would be from a fixed stub (a sequence it returns answers
    /// with its first response).
    @discardableResult
    nonisolated(nonsending) public func stub(
        _ pattern: RequestPattern,
        times: StubExpectation = .anyNumber,
        when condition: StubScenario.Condition? = nil,
        then transition: StubScenario.Transition? = nil,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column,
        respond: @escaping @Sendable (RecordedRequest) async throws -> StubResponse
    ) async -> Stub {
        let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        return register(pattern, source: .dynamic(respond), times: times, when: condition, then: transition, location: location)
    }

    /// Answers the requests that match `pattern` with the response `respond` computes
    /// from each request, with a closure that does not suspend.
    ///
    /// Swift picks this form for a closure without `await`, such as
    /// `{ request in .json(User(id: request.pathParameters["id"]!)) }`; a closure
    /// that awaits gets the asynchronous form. The request is then answered the
    /// way a fixed response is, before URLSession's call to the URL protocol
    /// returns, with no task started for it.
    ///
    /// The closure runs once per request, in the request's scope (``StubScope/current``
    /// is that scope while it runs), on the thread URLSession asks the URL protocol
    /// to load on, as a `.predicate` condition does: keep it quick, and never block
    /// it waiting for another request. It may throw: a thrown
    /// error fails the request with that error. Nothing interrupts it: the scope's
    /// end while it runs fails the request once it returns (its answer is
    /// dropped). Uses,
    /// expectations, the request log, scenarios and seeded faults count it as they
    /// count any stub; a response it returns with a delay, or a stream, is then
    /// played as it would be from a fixed stub (a sequence it returns answers with
    /// its first response).
    @discardableResult
    nonisolated(nonsending) public func stub(
        _ pattern: RequestPattern,
        times: StubExpectation = .anyNumber,
        when condition: StubScenario.Condition? = nil,
        then transition: StubScenario.Transition? = nil,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column,
        respond: @escaping @Sendable (RecordedRequest) throws -> StubResponse
    ) async -> Stub {
        let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        return register(pattern, source: .inline(respond), times: times, when: condition, then: transition, location: location)
    }

    /// Removes every stub of the scope; the request log and the scenarios are kept.
    nonisolated(nonsending) public func removeAllStubs() async {
        StubRegistry.shared.removeAllStubs(from: self)
    }

    /// Whether the scope is still open (the global scope always is).
    nonisolated(nonsending) public var isOpen: Bool {
        get async {
            StubRegistry.shared.isOpen(self)
        }
    }

    /// Registers a stub answered by `source`, under `condition` and making
    /// `transition`, and returns its handle.
    func register(
        _ pattern: RequestPattern,
        source: StubEntry.Source,
        times: StubExpectation,
        when condition: StubScenario.Condition? = nil,
        then transition: StubScenario.Transition? = nil,
        location: StubSourceLocation
    ) -> Stub {
        let id = StubRegistry.shared.register(
            pattern,
            source: source,
            expectation: times,
            location: location,
            rule: ScenarioBinding(condition, transition),
            in: self
        )
        return Stub(id: id ?? 0, scope: self, pattern: pattern, location: location)
    }
}
