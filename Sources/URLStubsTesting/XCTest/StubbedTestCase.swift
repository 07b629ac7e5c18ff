@_spi(Integration) import URLStubs
import XCTest

/// An `XCTestCase` whose every test method runs in a fresh stub scope, with no
/// set-up or tear-down code to write.
///
/// Derive a test case from it and register stubs on ``stubScope`` (or
/// `StubScope.currentTest()`); requests made by the test method through a stubbed
/// session are answered by that scope. When the test method returns, the scope ends
/// and each unmatched request or unmet expectation is recorded as a failure of that
/// test method, at the line that registered its stub (an unmatched request at its
/// nearest stub; with none, on the test method; a cassette's stubs at the cassette
/// file).
///
/// ```swift
/// final class UserClientTests: StubbedTestCase {
///     func testFetchesAUser() async throws {
///         await stubScope.stub(.get("https://api.example.com/users/1"), with: .json(User(id: 1)))
///         let user = try await UserClient(session: .stubbed).user(id: 1)
///         XCTAssertEqual(user.id, 1)
///     }
/// }
/// ```
///
/// The scope is bound around `invokeTest()`, so it covers `setUp`, the test method
/// (synchronous or `async`) and `tearDown`, and every child task they create.
open class StubbedTestCase: XCTestCase {
    /// The stub scope of the running test method.
    public private(set) var stubScope: StubScope = .global

    /// How each test method's scope is set up: override it to give the scopes a
    /// clock, a cassette, a seed or a name (by default the test's). It is read once
    /// per test method, before `setUp`, so it may depend on the test's `name`.
    ///
    /// XCTest does not say which file a test is written in: give a cassette as
    /// `CassetteFile.at(_:)` or `CassetteFile.named(_:in:)`
    /// with a directory (`CassetteFile.perTestCase` and a name without a
    /// directory are refused, as a failure of the test). So are a cassette's mode,
    /// redaction or matching given without a cassette: they would do nothing.
    ///
    /// ```swift
    /// override var stubScopeOptions: StubScopeOptions {
    ///     StubScopeOptions(clock: { ManualClock() }, seed: 7)
    /// }
    /// ```
    open var stubScopeOptions: StubScopeOptions {
        StubScopeOptions()
    }

    /// Runs the test method inside a fresh stub scope and reports the scope's
    /// problems when it ends.
    override open func invokeTest() {
        // XCTest does not say where a test method is written: problems are reported
        // at the stub they concern (or, for an unmatched request, the nearest stub).
        let options = stubScopeOptions
        let opened = StubScope.openDetachedScope(name: options.name ?? name, location: nil, clock: options.clock?())
        stubScope = opened
        if let failure = StubScope.applyBlocking(options, to: opened) {
            // The cassette cannot be used, or the options would be ignored: the
            // test fails with the reason instead of reaching the network or
            // answering from nothing.
            _ = StubScope.finishDetachedScope(opened)
            StubProblemReporter.reportSetupFailure(failure, testCase: self)
            return
        }
        StubScope.withBinding(opened) {
            super.invokeTest()
        }
        let seedNote = StubScope.seedNote(of: opened)
        let (problems, exchanges) = StubScope.finishDetachedScope(opened)
        // A skipped method ran only in part: its scope's problems say nothing, and
        // would turn the skip into a failure.
        guard testRun?.hasBeenSkipped != true else { return }
        if let seedNote, problems.isEmpty {
            // Say how to replay the test's faults, should it have failed for a reason
            // of its own (its problems, when it has any, end with the seed already).
            print(IntegrationMessages.seededTestCase(seedNote))
        }
        guard !problems.isEmpty else { return }
        // Messages and artifacts are scrubbed of every secret the exchanges held.
        let archive = ExchangeArchive(exchanges)
        StubProblemReporter.report(archive.scrub(problems), fallback: nil, testCase: self)
        if let written = FailureArtifacts.write(scope: name, problems: problems, exchanges: exchanges, archive: archive) {
            print(written)
        }
    }
}
