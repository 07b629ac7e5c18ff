/// Letting chosen requests reach the real network, and checking stubs against it.
extension StubScope {
    /// Sends the requests that match `pattern` to the real network instead of
    /// answering them from stubs: `scope.passThrough(.host("localhost"))`.
    ///
    /// The request goes out through a session of URLStubs' own that nothing
    /// stubs (method, headers, body and timeout as the request had them; cookies
    /// and caches are not shared), and its caller receives the real status, header
    /// fields and body, or the network's error. It is recorded in ``requests`` and
    /// ``exchanges`` like any other. A redirect the server answers is followed the
    /// way a stubbed one is: each hop is a request of its own, answered by the
    /// scope (so a hop no passthrough or stub matches fails, and a hop to another
    /// origin carries no `Authorization`, `Proxy-Authorization` or `Cookie`), and
    /// the final response has the final URL. Like any stub, it competes by
    /// recency: stubs registered after it win for the requests they match.
    ///
    /// By default nothing reaches the network: a request no stub matches fails.
    @discardableResult
    nonisolated(nonsending) public func passThrough(
        _ pattern: RequestPattern = .anyRequest,
        times: StubExpectation = .anyNumber,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async -> Stub {
        let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        return register(pattern, source: .passThrough, times: times, location: location)
    }

    /// Starts drift checks, a mode that stays on until the scope ends: every request
    /// the scope's stubs (or cassette) answer from now on is also sent to the real
    /// server, and the scope reports, when the scope ends, each stub whose answer
    /// differs from the server's: the status, the content type, and the shape of
    /// the JSON body (keys present or missing, value types, recursively).
    ///
    /// The code under test still receives the stubbed answer. Each difference is a
    /// problem of the scope, reported at the stub's line. Setting the environment
    /// variable `URLSTUBS_VERIFY_LIVE=1` (or `true`, `yes`, `on`) turns this on for
    /// every scope of a run; a value that is neither on nor off (`0`, `false`,
    /// `no`, `off`) is a problem of every scope.
    nonisolated(nonsending) public func startCheckingForDrift() async {
        _ = StubRegistry.shared.checkLive(in: self)
    }
}
