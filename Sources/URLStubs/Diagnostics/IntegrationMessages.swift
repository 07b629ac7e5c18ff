/// Messages that test-framework integrations (`URLStubsTesting`) show, kept with
/// every other message of the package.
@_spi(Integration)
public enum IntegrationMessages {
    /// What `StubScope.currentTest()` records where no scope is open.
    public static let noScopeForCurrentTest = "StubScope.currentTest() was used where no stub scope is open: add the .stubbed trait to the test or its suite, derive the XCTest case from StubbedTestCase, or wrap the code in withStubScope { scope in ... }."

    /// What `interceptSharedSession()` and `interceptDefaultConfigurations()` record
    /// on Linux, where they cannot work.
    public static let sharedSessionUnsupported = "URLStubs cannot intercept URLSession.shared or sessions built from .default/.ephemeral configurations on Linux: Foundation there consults its built-in HTTP protocol before any registered class. Inject the session instead: pass URLSession.stubbed, or a session built from URLSessionConfiguration.stubbed or .stubbed(from:), to the code under test."
}
