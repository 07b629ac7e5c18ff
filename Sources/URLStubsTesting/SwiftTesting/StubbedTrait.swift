#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) import URLStubs

/// A trait that runs each test case in a fresh stub scope and reports the scope's
/// problems as issues of that test case.
///
/// Apply it as `@Test(.stubbed)` or `@Suite(.stubbed)`; use
/// `.stubbed { scope in ... }` to register baseline
/// stubs for every test it wraps. Inside the test, reach the scope with
/// `StubScope.currentTest()`.
///
/// - On a suite, the trait is recursive: every test below it, and every argument of
///   a parameterized test, runs in its own scope.
/// - A suite trait and a test trait (or two suite traits) give **one scope per test
///   case**: the outermost trait opens it, and each trait registers its baseline
///   stubs into it, outermost first, so the stubs nearest the test win.
/// - `withStubScope` inside a test under the trait opens a nested scope: it sees the
///   trait's stubs, its own stubs win, and its problems are thrown by
///   `withStubScope` when it ends.
///
/// When the scope ends, every unmatched request and unmet expectation becomes an
/// `Issue` of the test case that owned the scope: an unmet expectation points at
/// the line that registered the stub, an unmatched request at the trait.
public struct StubbedTrait: TestTrait, SuiteTrait, TestScoping {
    /// Registers baseline stubs in the scope before the test runs.
    let setup: (@Sendable (StubScope) async throws -> Void)?
    /// Where the trait was written, when known.
    let location: StubSourceLocation?
    /// How the trait sets up each test case's scope; merged, field by field, with
    /// the options of the other `.stubbed` traits of the test.
    let options: StubScopeOptions
    /// The path of the file the trait is written in: `Cassettes/` is next to it.
    let traitFile: String?

    init(setup: (@Sendable (StubScope) async throws -> Void)?, location: StubSourceLocation?, options: StubScopeOptions = StubScopeOptions(), traitFile: String? = nil) {
        self.setup = setup
        self.location = location
        self.options = options
        self.traitFile = traitFile
    }

    /// Always `true`: on a suite, every test case below it gets its own scope.
    public var isRecursive: Bool {
        true
    }

    /// The scope the outermost `.stubbed` trait opened for the running test case.
    @TaskLocal static var traitScope: StubScope?

    /// Asks to run for the suite itself as well when the trait registers baseline
    /// stubs on a suite, to report the ones no test used.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> StubbedTrait? {
        if test.isSuite {
            return setup == nil ? nil : self
        }
        return testCase == nil ? nil : self
    }

    /// Runs `function` in the test case's stub scope, opening it if no outer
    /// `.stubbed` trait did, and reports the scope's problems when it ends.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        if test.isSuite {
            try await BaselineTally.run(for: test, baseline: location) { try await function() }
            return
        }
        if let scope = Self.traitScope, StubScope.current == scope {
            // An outer `.stubbed` trait opened the scope with the options of every
            // trait of the test, this one's included: only the baseline is left.
            try await registerBaseline(in: scope)
            try await function()
            return
        }
        let location = self.location ?? StubSourceLocation(test.sourceLocation)
        let (options, sourceFile) = mergedOptions(for: test)
        // The exchanges are kept for problems only, the use for a suite's tally.
        let tally = BaselineTally.current
        let outcome = await StubScope.withNewScope(name: options.name ?? test.displayName ?? test.name, location: location, clock: options.clock?(), keepingExchanges: false, keepingUsage: tally != nil) { scope in
            try await Self.$traitScope.withValue(scope) {
                try await scope.apply(options, openedIn: sourceFile, testCase: try TraitCassette.testCase(of: test, testCase: testCase, options: options), location: location)
                try await registerBaseline(in: scope)
                try await function()
            }
        }
        tally?.add(outcome.usage)
        if !outcome.problems.isEmpty {
            // Issues and artifacts are scrubbed of every secret the exchanges held.
            let archive = ExchangeArchive(outcome.exchanges)
            StubProblemReporter.report(archive.scrub(outcome.problems), fallback: location)
            FailureArtifacts.attach(outcome, archive: archive)
        }
        if let seedNote = outcome.seedNote, !outcome.problems.contains(where: { !$0.isWarning }) {
            // Swift Testing tells a trait nothing of the test's failed expectations:
            // the seed is said for every seeded test case, as a warning, so that a
            // test that fails for any reason can be replayed.
            Issue.recordWarning(IntegrationMessages.seededTestCase(seedNote), at: location.swiftTesting)
        }
        if case let .failure(error as URLError) = outcome.result,
           outcome.problems.contains(where: { $0.message == error.localizedDescription }) {
            // The test let the URLError of an unmatched request escape: it was just
            // reported as an issue, with its near misses; do not report it twice.
            return
        }
        try outcome.result.get()
    }

    /// The options of every `.stubbed` trait of `test` (the suites' first, then the
    /// test's own in the order written), merged so that the nearer wins field by
    /// field, and the file `Cassettes/` is next to: that of the trait that gave the
    /// cassette. `test` has only this trait when it does not list any (when the
    /// trait is run by hand).
    private func mergedOptions(for test: Test) -> (StubScopeOptions, sourceFile: String) {
        let traits = test.traits.compactMap { $0 as? StubbedTrait }
        return Self.merge(traits.isEmpty ? [self] : traits, testFile: test.sourceLocation.filePath)
    }

    /// The options of `traits`, merged in order so that a later trait's fields win,
    /// and the file the cassette's `Cassettes/` is next to: that of the last trait
    /// that gave a cassette, else `testFile`.
    static func merge(_ traits: [StubbedTrait], testFile: String) -> (StubScopeOptions, sourceFile: String) {
        var options = StubScopeOptions()
        var sourceFile = testFile
        for trait in traits {
            options = options.merging(trait.options)
            if trait.options.cassette != nil {
                sourceFile = trait.traitFile ?? trait.location?.filePath ?? testFile
            }
        }
        return (options, sourceFile)
    }

    /// Registers the trait's baseline stubs in `scope`, telling the suite's tally
    /// which stubs they are.
    private func registerBaseline(in scope: StubScope) async throws {
        guard let setup else { return }
        let before = await scope.usage.count
        try await setup(scope)
        if let location, let tally = BaselineTally.current?.tally(ownedBy: location) {
            await tally.markBaseline(Array(scope.usage.dropFirst(before)))
        }
    }
}

extension Trait where Self == StubbedTrait {
    /// Runs each test case in a fresh stub scope, reporting its unmatched requests
    /// and unmet expectations as issues of that test case.
    public static var stubbed: StubbedTrait {
        StubbedTrait(setup: nil, location: nil)
    }

    /// Runs each test case in a fresh stub scope after registering baseline stubs
    /// with `setup`.
    ///
    /// On a suite, `setup` runs for every test case, so a suite shares a baseline
    /// while each test adds stubs of its own privately (and its own win).
    public static func stubbed(
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column,
        _ setup: @escaping @Sendable (StubScope) async throws -> Void
    ) -> StubbedTrait {
        StubbedTrait(setup: setup, location: StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Runs each test case in a fresh stub scope set up by `options`, after
    /// registering the baseline stubs of `setup`.
    ///
    /// When a suite and a test (or two traits on one test) give options, they are
    /// merged field by field and the nearer wins: a field the test's trait sets
    /// replaces the suite's, a field it leaves `nil` keeps the suite's; of two
    /// traits on one test, the later one written is the nearer. A cassette's
    /// `Cassettes/` directory is next to the file of the trait that gave the
    /// cassette. The scope's name is the test's unless the options give one.
    ///
    /// ```swift
    /// @Suite(.stubbed(StubScopeOptions(cassette: .perTestCase, redaction: .standard.adding(.header("X-Session")))))
    /// struct OrderTests {
    ///     @Test(.stubbed(clock: { ManualClock() }))   // the suite's cassette, this clock
    ///     func retries() async throws { ... }
    /// }
    /// ```
    public static func stubbed(
        _ options: StubScopeOptions,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column,
        _ setup: (@Sendable (StubScope) async throws -> Void)? = nil
    ) -> StubbedTrait {
        StubbedTrait(setup: setup, location: StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column), options: options, traitFile: filePath)
    }

    /// Runs each test case in a fresh stub scope timed by a clock `clock` makes for
    /// it, after registering the baseline stubs of `setup`: the same as
    /// `.stubbed(StubScopeOptions(clock: clock))`.
    ///
    /// Read the clock in the test with `StubScope.clock`:
    ///
    /// ```swift
    /// @Test(.stubbed(clock: { ManualClock() }))
    /// func retriesAfterBackoff() async throws {
    ///     let clock = try #require(await StubScope.currentTest().clock as? ManualClock)
    ///     ...
    /// }
    /// ```
    public static func stubbed(
        clock: @escaping @Sendable () -> any Clock<Duration>,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column,
        _ setup: (@Sendable (StubScope) async throws -> Void)? = nil
    ) -> StubbedTrait {
        .stubbed(StubScopeOptions(clock: clock), fileID: fileID, filePath: filePath, line: line, column: column, setup)
    }

    /// Runs each test case in a fresh stub scope that replays and records the HAR
    /// cassette `cassette`, after registering the baseline stubs of `setup`: the
    /// same as `.stubbed(StubScopeOptions(cassette:cassetteMode:redaction:cassetteMatching:))`.
    ///
    /// `CassetteFile.perTestCase` gives each test case a file of its own,
    /// `Cassettes/<suite name>/<test function name>.har` next to the test file; a
    /// name (`"users"`, or `"users.har"`) is `Cassettes/users.har` (give a name only
    /// on a single test: two test cases writing one file at once is refused).
    /// `mode` is what `withStubScope(_:clock:cassette:mode:redaction:matching:seed:)`
    /// describes, and the environment variable `URLSTUBS_RECORD` overrides it for a
    /// run. `matching` is how requests are matched with the cassette's entries
    /// (`CassetteMatching`). Parameterized tests cannot share one cassette per case: call
    /// `withStubScope(cassette:)` inside them with a file per argument.
    ///
    /// `mode`, `redaction` and `matching` left out keep what a suite's trait gives
    /// (its redaction rules too), else `.replay`, `Redaction.standard` and
    /// `CassetteMatching.standard`.
    public static func stubbed(
        cassette: CassetteFile,
        mode: CassetteMode? = nil,
        redaction: Redaction? = nil,
        matching: CassetteMatching? = nil,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column,
        _ setup: (@Sendable (StubScope) async throws -> Void)? = nil
    ) -> StubbedTrait {
        let options = StubScopeOptions(cassette: cassette, cassetteMode: mode, redaction: redaction, cassetteMatching: matching)
        return .stubbed(options, fileID: fileID, filePath: filePath, line: line, column: column, setup)
    }
}
