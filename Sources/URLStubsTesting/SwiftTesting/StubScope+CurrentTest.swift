@_spi(Integration) import URLStubs

extension StubScope {
    /// The stub scope of the running test, for tests under the `.stubbed` trait, a
    /// `StubbedTestCase`, or `withStubScope`.
    ///
    /// Used where no scope is open, it records a test failure that says how to open
    /// one, and returns a scope that is never open: stubs registered on it are
    /// ignored, so no stub leaks into another test or the global scope.
    public static func currentTest(
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) -> StubScope {
        if let current {
            return current
        }
        StubProblemReporter.reportMissingScope(
            IntegrationMessages.noScopeForCurrentTest,
            at: StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
        return .unavailable
    }
}
