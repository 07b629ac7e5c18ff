#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Runs `body` inside a new stub scope and ends the scope when `body` returns.
///
/// The scope is current for `body` and every child task it creates, so requests
/// they make through a stubbed session are answered by the scope's stubs (then by
/// the stubs of the scope enclosing this call, if any, then by ``StubScope/global``).
/// Scopes of tasks running in parallel never see each other's stubs.
///
/// When `body` returns, the scope ends: its stubs' expectations are verified,
/// requests still waiting for a delayed or computed response fail, and its stubs
/// and request log are freed.
///
/// `body` runs on the caller's actor, and opening and ending the scope never leave
/// it (unless drift checks are on: they wait for the network): a `@MainActor` test
/// stays on the main actor throughout, and so do the scope's own calls (`stub`,
/// `requests`, direct answers with a fixed response).
///
/// ```swift
/// try await withStubScope { scope in
///     await scope.stub(.get("https://api.example.com/users/1"), with: .json(User(id: 1)))
///     let user = try await client.user(id: 1)
///     #expect(user.id == 1)
/// }
/// ```
///
/// Every time-based behaviour of the scope and of the scopes nested in it runs on
/// `clock` when one is given: `.delayed(by:)`, stream intervals, throttling,
/// stalls and the requests' `timeoutInterval`. With a ``ManualClock`` a test of a
/// 60-second timeout or of a retry's backoff runs in microseconds:
///
/// ```swift
/// let clock = ManualClock()
/// try await withStubScope(clock: clock) { scope in
///     await scope.stub(.get(url), with: .text("late").delayed(by: .seconds(90)))
///     async let result = client.load()          // timeoutInterval 60 s
///     try await clock.waitForSleepers(atLeast: 1)
///     await clock.advance(by: .seconds(60))     // the request fails with .timedOut now
/// }
/// ```
///
/// With a `cassette` (a HAR 1.2 file), the scope answers from it, recording real
/// exchanges into it as `mode` says:
///
/// - ``CassetteMode/replay``: the file must exist; every request is answered from
///   it, and a request it has no entry for fails with near misses against its
///   entries. Nothing reaches the network.
/// - ``CassetteMode/record``: requests the scope's own stubs do not answer go to
///   the network, and the file is replaced with what came back when the scope ends.
/// - ``CassetteMode/recordMissing``: what the file has is replayed, the rest goes to
///   the network, and the new entries are added to the file.
///
/// The environment variable `URLSTUBS_RECORD` (`all`, `missing` or `none`)
/// overrides `mode` for a whole run. Repeated identical requests replay their
/// entries in order, each once. Stubs registered in `body` win over the cassette.
/// `matching` says how requests are matched with the cassette's entries (and what
/// the answers take from them); see ``CassetteMatching``. A request it matches is
/// answered from the cassette in every mode, so recording with
/// ``CassetteMode/recordMissing`` adds nothing when nothing new was sent.
/// The file is written when the scope ends, also when `body` throws, atomically,
/// with keys and entries in a stable order and no timestamps, after `redaction`
/// removed secrets and a scan found none left; otherwise nothing is written and
/// the refusal is one of the problems thrown as ``StubVerificationError``.
///
/// To give the same set-up to several scopes, or a cassette by name, pass a
/// ``StubScopeOptions`` instead.
///
/// - Parameters:
///   - name: A name for the scope, shown in failure messages.
///   - clock: The clock that times the scope's answers; by default the enclosing
///     scope's, else the continuous clock.
///   - cassette: A HAR file to replay and record; none by default. `mode`,
///     `redaction` and `matching` apply to it and to nothing else: given with a
///     `nil` cassette, they throw ``CassetteError/nilCassette(parameters:)``; a
///     `nil` cassette alone opens a scope without one.
///   - mode: How the cassette is used: replayed only (the default), recorded, or
///     replayed with what it lacks recorded.
///   - redaction: What is removed from recorded exchanges before they are
///     written; by default ``Redaction/standard``.
///   - matching: How requests are matched with the cassette's entries; by
///     default ``CassetteMatching/standard``.
///   - seed: The seed of the scope's faults and response order
///     (``StubScopeOptions/seed``).
///   - fileID: The file of the call, for reports; leave it to its default.
///   - filePath: The path of that file, for reports; leave it to its default.
///   - line: The line of the call, for reports; leave it to its default.
///   - column: The column of the call, for reports; leave it to its default.
///   - isolation: The actor `body` runs on; leave it to its default (the caller's).
///   - body: The code to run with the scope current; it receives the scope.
/// - Returns: What `body` returns.
/// - Throws: ``CassetteError`` when the cassette cannot be read, or when a
///   cassette's mode, redaction or matching is given with a `nil` cassette
///   (before `body` runs). A ``StubVerificationError`` listing every unmatched request, unmet
///   expectation and unusable stub of the scope (and, among them, any request
///   abandoned in flight); when `body` threw too, the error carries what it threw
///   (``StubVerificationError/bodyError``), so that a client's own error wrapping
///   "no stub matches" does not hide the near misses. A scope whose only
///   problems are abandoned requests does not throw them: their requests already
///   failed. Without problems, the error `body` throws is rethrown as it is,
///   except in a seeded scope (faults or response order), where it is carried by
///   a ``StubVerificationError`` that names the seed and how to replay it. Its
///   messages are scrubbed of the secrets the scope's exchanges carried (see
///   `Redaction`).
@discardableResult
public func withStubScope<Result>(
    _ name: String? = nil,
    clock: (any Clock<Duration>)? = nil,
    cassette: URL? = nil,
    mode: CassetteMode? = nil,
    redaction: Redaction? = nil,
    matching: CassetteMatching? = nil,
    seed: UInt64? = nil,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (StubScope) async throws -> Result
) async throws -> Result {
    let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let cassette else {
        if mode != nil || redaction != nil || matching != nil {
            let given = [("mode", mode != nil), ("redaction", redaction != nil), ("matching", matching != nil)].filter(\.1).map(\.0)
            throw CassetteError.nilCassette(parameters: given)
        }
        // No cassette: nothing to read before `body` runs, so no options to apply.
        return try await withVerifiedScope(name: name, location: location, clock: clock, seed: seed, isolation: isolation, body)
    }
    var options = StubScopeOptions(name: name, seed: seed)
    if let clock {
        options.clock = { clock }
    }
    options.cassette = CassetteFile.at(cassette)
    options.cassetteMode = mode
    options.redaction = redaction
    options.cassetteMatching = matching
    return try await withStubScope(options, fileID: fileID, filePath: filePath, line: line, column: column, isolation: isolation, body)
}

/// Runs `body` inside a new stub scope set up by `options`, and ends the scope when
/// `body` returns.
///
/// The scope behaves as ``withStubScope(_:clock:cassette:mode:redaction:matching:seed:fileID:filePath:line:column:isolation:_:)``
/// describes; `options` gives it a name, a clock, a cassette (a
/// ``CassetteFile/named(_:in:)`` file is in `Cassettes/` next to the file of this
/// call) and a seed, each optional:
///
/// ```swift
/// let clock = ManualClock()
/// let options = StubScopeOptions(clock: { clock }, cassette: .named("orders"), seed: 7)
/// try await withStubScope(options) { scope in
///     ...
/// }
/// ```
///
/// - Throws: ``CassetteError`` when the cassette cannot be used, or when
///   `options` set a cassette's mode, redaction or matching without a cassette
///   (``CassetteError/noCassette(fields:)``), before `body` runs; else what the
///   other `withStubScope` throws.
@discardableResult
public func withStubScope<Result>(
    _ options: StubScopeOptions,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (StubScope) async throws -> Result
) async throws -> Result {
    if let refusal = options.cassetteFieldsWithoutCassette {
        throw refusal
    }
    let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard options.cassette != nil else {
        return try await withVerifiedScope(name: options.name, location: location, clock: options.clock?(), seed: options.seed, isolation: isolation, body)
    }
    return try await withVerifiedScope(name: options.name, location: location, clock: options.clock?(), seed: nil, isolation: isolation) { scope in
        // A closure is isolated to an `isolated` parameter only when it captures
        // it. Without this capture it would be nonisolated: every scope opened on an
        // actor (a `@MainActor` test) would leave it and come back, two context
        // switches and about 14 µs per scope (the benchmark's main-actor rows).
        _ = isolation
        try await scope.apply(options, openedIn: filePath, testCase: nil, location: location)
        return try await body(scope)
    }
}

/// Runs `body` in a new scope, seeded with `seed` when it is given, and throws
/// what `body` threw, else the scope's problems (unless they are only warnings);
/// the core of every `withStubScope`.
///
/// Generic only where it must be: `Result` is passed through, never wrapped in a
/// generic type of its own (such as an ``StubScope/Outcome``), whose metadata the
/// runtime would look up on every call (the function is not specialized for the
/// caller's type: it is called from another module). Ending the scope and
/// deciding what to throw are not generic.
func withVerifiedScope<Result>(
    name: String?,
    location: StubSourceLocation,
    clock: (any Clock<Duration>)?,
    seed: UInt64?,
    isolation: isolated (any Actor)?,
    _ body: (StubScope) async throws -> Result
) async throws -> Result {
    let scope = StubScope.openScope(name: name, location: location, clock: clock)
    if let seed {
        StubRegistry.shared.setSeed(seed, of: scope)
    }
    let value: Result
    do {
        value = try await StubScope.currentBinding.withValue(scope, operation: {
            _ = isolation // Captured, so that the operation stays on the caller's actor (see withStubScope).
            return try await body(scope)
        }, isolation: isolation)
    } catch {
        // Most scopes check nothing live: no suspension for them.
        let drift = StubRegistry.shared.hasLiveChecks(in: scope) ? await StubRegistry.shared.finishLiveChecks(in: scope) : []
        throw ScopeVerdict(scope, name: name, location: location, drift: drift).error(afterThrowing: error)
    }
    let drift = StubRegistry.shared.hasLiveChecks(in: scope) ? await StubRegistry.shared.finishLiveChecks(in: scope) : []
    if let error = ScopeVerdict(scope, name: name, location: location, drift: drift).errorAfterReturning() {
        throw error
    }
    return value
}

/// What a scope that ended found, and the error `withStubScope` throws for it.
private struct ScopeVerdict {
    let scope: StubScope
    let name: String?
    let location: StubSourceLocation
    let ending: StubRegistry.Ending

    /// Ends `scope`, adding the problems of its drift checks, `drift`, to its own.
    init(_ scope: StubScope, name: String?, location: StubSourceLocation, drift: [StubProblem]) {
        self.scope = scope
        self.name = name
        self.location = location
        ending = StubScope.finishScope(scope, drift: drift, keepingExchanges: false, keepingUsage: false)
    }

    /// The error to throw when the body returned: its problems, unless they are
    /// only warnings; `nil` when the body's value is returned.
    func errorAfterReturning() -> StubVerificationError? {
        ending.problems.contains { !$0.isWarning } ? verification() : nil
    }

    /// The error to throw when the body threw `bodyError`.
    func error(afterThrowing bodyError: any Error) -> any Error {
        let failing = ending.problems.filter { !$0.isWarning }
        if let urlError = bodyError as? URLError, failing.count == 1, failing[0].message == urlError.localizedDescription {
            // The body let the error of the one unmatched request escape: it says it all.
            return bodyError
        }
        if !failing.isEmpty {
            return verification(bodyError: bodyError)
        }
        if let seedNote = ending.seedNote, !(bodyError is CancellationError) {
            return verification(bodyError: bodyError, seedNote: seedNote)
        }
        return bodyError
    }

    /// The scope's problems as the error that reports them, scrubbed of the
    /// exchanges' secrets (test frameworks print it).
    private func verification(bodyError: (any Error)? = nil, seedNote: String? = nil) -> StubVerificationError {
        StubVerificationError(
            scope: scope,
            scopeTitle: ScopeMessages.title(of: scope, name: name, location: location),
            problems: ExchangeArchive(ending.exchanges).scrub(ending.problems),
            bodyError: bodyError,
            seedNote: seedNote
        )
    }
}
