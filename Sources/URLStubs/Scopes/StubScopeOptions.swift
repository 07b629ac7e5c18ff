import Foundation

/// How a stub scope is set up: its name, its clock, its cassette (with the
/// cassette's mode, redaction and matching) and the seed of its faults.
///
/// One value is accepted everywhere a scope is opened: by
/// `withStubScope(_:fileID:filePath:line:column:isolation:_:)`, by the `.stubbed`
/// trait of `URLStubsTesting` and by its `StubbedTestCase`. Every field is
/// optional; a field left `nil` takes the default written next to it.
/// `withStubScope(_:)` and `StubbedTestCase` refuse a cassette's mode, redaction
/// or matching given without a ``cassette`` (``CassetteError/noCassette(fields:)``):
/// they would do nothing. A trait's options may give them alone, for the tests
/// below it that give a cassette.
///
/// ```swift
/// let clock = ManualClock()
/// let options = StubScopeOptions(clock: { clock }, cassette: .named("users"), seed: 42)
/// try await withStubScope(options) { scope in
///     ...
/// }
/// ```
///
/// ## Merging
///
/// When a suite and a test both give options (a `.stubbed` trait on each, or two
/// traits on one test), they are merged **field by field**, and the nearer one
/// wins: each field the test sets replaces the suite's, each field it leaves
/// `nil` keeps the suite's. Of two traits on one test, the one written later is
/// the nearer. So a suite may give the cassette's redaction and a test only its
/// clock: the test's scope has both. See ``merging(_:)``.
public struct StubScopeOptions: Sendable {
    /// The scope's name in failure messages; by default the test's name under the
    /// trait, else a number.
    public var name: String?
    /// Makes the clock that times the scope's answers (delays, streams, throttling,
    /// timeouts), called once for each scope opened with these options; by default
    /// the enclosing scope's clock, else the continuous clock. Return a new clock
    /// for each call when the options are shared by test cases running in parallel.
    public var clock: (@Sendable () -> any Clock<Duration>)?
    /// The HAR file the scope replays and records; by default none.
    public var cassette: CassetteFile?
    /// How the scope uses its ``cassette``; by default ``CassetteMode/replay``.
    /// `URLSTUBS_RECORD` overrides it for a run.
    public var cassetteMode: CassetteMode?
    /// What is removed from the cassette before it is written; by default
    /// ``Redaction/standard``.
    public var redaction: Redaction?
    /// How requests are matched with the cassette's entries; by default
    /// ``CassetteMatching/standard``.
    public var cassetteMatching: CassetteMatching?
    /// The seed of the scope's faults and response order, as the `seed:` of
    /// `injectFaults` and `shuffleResponseOrder` would give it; by default the
    /// enclosing scope's, else a random one. `URLSTUBS_SEED` overrides it.
    public var seed: UInt64?

    /// Options with the fields given; each field left `nil` takes its default.
    public init(
        name: String? = nil,
        clock: (@Sendable () -> any Clock<Duration>)? = nil,
        cassette: CassetteFile? = nil,
        cassetteMode: CassetteMode? = nil,
        redaction: Redaction? = nil,
        cassetteMatching: CassetteMatching? = nil,
        seed: UInt64? = nil
    ) {
        self.name = name
        self.clock = clock
        self.cassette = cassette
        self.cassetteMode = cassetteMode
        self.redaction = redaction
        self.cassetteMatching = cassetteMatching
        self.seed = seed
    }

    /// ``CassetteError/noCassette(fields:)`` naming the fields that apply only to
    /// a cassette (``cassetteMode``, ``redaction``, ``cassetteMatching``) which
    /// these options set without a ``cassette``; `nil` when they set none.
    ///
    /// Under a trait that is no mistake (a suite may give the mode, and only some
    /// of its tests a cassette); `withStubScope(_:)` and a `StubbedTestCase` fail
    /// with it.
    var cassetteFieldsWithoutCassette: CassetteError? {
        guard cassette == nil else { return nil }
        var fields: [String] = []
        if cassetteMode != nil { fields.append("cassetteMode") }
        if redaction != nil { fields.append("redaction") }
        if cassetteMatching != nil { fields.append("cassetteMatching") }
        return fields.isEmpty ? nil : CassetteError.noCassette(fields: fields)
    }

    /// These options with every field that `nearer` sets taking its value: how a
    /// test's options apply over its suite's (`suite.merging(test)`).
    public func merging(_ nearer: StubScopeOptions) -> StubScopeOptions {
        StubScopeOptions(
            name: nearer.name ?? name,
            clock: nearer.clock ?? clock,
            cassette: nearer.cassette ?? cassette,
            cassetteMode: nearer.cassetteMode ?? cassetteMode,
            redaction: nearer.redaction ?? redaction,
            cassetteMatching: nearer.cassetteMatching ?? cassetteMatching,
            seed: nearer.seed ?? seed
        )
    }
}

@_spi(Integration)
extension StubScope {
    /// Applies the cassette and seed of `options` to the newly opened `scope`: the
    /// cassette file resolved for a scope opened in `sourceFile` (for the test case
    /// `testCase`, when it is one).
    ///
    /// The cassette's stubs are registered at `location`; with none (XCTest does
    /// not say where a test is written), at the cassette file's first line, which
    /// reports write as `Cassettes/users.har:1`.
    ///
    /// - Throws: ``CassetteError`` when the cassette cannot be used.
    nonisolated(nonsending) public func apply(
        _ options: StubScopeOptions,
        openedIn sourceFile: String?,
        testCase: (group: String, test: String)?,
        location: StubSourceLocation?
    ) async throws {
        if let seed = options.seed {
            StubRegistry.shared.setSeed(seed, of: self)
        }
        guard let cassette = options.cassette else { return }
        let file = try cassette.url(openedIn: sourceFile, testCase: testCase)
        try await useCassette(
            file,
            mode: options.cassetteMode ?? .replay,
            redaction: options.redaction ?? .standard,
            matching: options.cassetteMatching ?? .standard,
            location: location ?? StubSourceLocation(cassette: file)
        )
    }
}
