/// Building blocks for test-framework integrations whose scope cannot be a closure
/// around `async` code, such as XCTest's synchronous `invokeTest()`.
@_spi(Integration)
extension StubScope {
    /// Opens a new top-level scope that the caller must end with
    /// ``closeDetachedScope(_:)``.
    public static func openDetachedScope(name: String?, location: StubSourceLocation) async -> StubScope {
        await StubRegistry.shared.openScope(name: name, parent: nil, location: location).0
    }

    /// Ends a scope opened with ``openDetachedScope(name:location:)`` and returns its
    /// problems.
    public static func closeDetachedScope(_ scope: StubScope) async -> [StubProblem] {
        await StubRegistry.shared.endScope(scope)
    }

    /// Runs the synchronous `body` with `scope` bound as the current scope; tasks
    /// that `body` creates inherit it.
    public static func withBinding<Value>(_ scope: StubScope, _ body: () throws -> Value) rethrows -> Value {
        try $bound.withValue(scope, operation: body)
    }
}
