/// Messages that test-framework integrations (`URLStubsTesting`) show, kept with
/// every other message of the package.
@_spi(Integration)
public enum IntegrationMessages {
    /// What `StubScope.currentTest()` records where no scope is open.
    public static let noScopeForCurrentTest = "StubScope.currentTest() was used where no stub scope is open: add the .stubbed trait to the test or its suite, derive the XCTest case from StubbedTestCase, or wrap the code in withStubScope { scope in ... }."

    /// What `interceptSharedSession()` and `interceptDefaultConfigurations()` record
    /// on Linux, where they cannot work.
    public static let sharedSessionUnsupported = "URLStubs cannot intercept URLSession.shared or sessions built from .default/.ephemeral configurations on Linux: Foundation there consults its built-in HTTP protocol before any registered class. Inject the session instead: pass URLSession.stubbed, or a session built from URLSessionConfiguration.stubbed or .stubbed(from:), to the code under test."

    /// What a suite's `.stubbed { … }` trait reports for a baseline stub that no
    /// test case of the suite used.
    public static func unusedBaseline(_ stub: String, at location: StubSourceLocation, suite: String, testCases: Int) -> String {
        let cases = testCases == 1 ? "the 1 test case of it that ran" : "any of the \(testCases) test cases of it that ran"
        return "URLStubs: the baseline stub \(stub) (registered at \(location)) of suite \(suite) answered no request in \(cases); remove it, or move it to the tests that need it (in a run of some of the suite's tests, the others may use it)."
    }

    /// What a test case under a seeded scope is told, so that it can be replayed
    /// when it fails for a reason of its own.
    public static func seededTestCase(_ seedNote: String) -> String {
        "URLStubs: this test case's scope was seeded; if it failed, replay it with the same decisions. \(seedNote)"
    }

    /// The report attached to a test whose scope ended with problems.
    public static func artifactReport(scope: String, problems: [StubProblem], exchangesNote: String) -> String {
        (["URLStubs: \(scope) ended with these problems:"] + problems.enumerated().map { "\($0.offset + 1). \($0.element.message)" } + ["", exchangesNote])
            .joined(separator: "\n")
    }

    /// Where the exchanges of a failing scope went.
    public static func exchangesAttached(_ count: Int) -> String {
        "Its exchanges (\(count) \(count == 1 ? "request" : "requests") with their answers, redacted) are in the HAR 1.2 file that accompanies this report."
    }

    /// Why the exchanges of a failing scope were not attached.
    public static func exchangesWithheld(_ reason: String) -> String {
        "Its exchanges are not attached: \(reason)"
    }

    /// Where a failing XCTest scope's artifacts were written.
    public static func artifactsWritten(_ path: String) -> String {
        "URLStubs: the failing scope's exchanges and report were written to \(path)"
    }
}
