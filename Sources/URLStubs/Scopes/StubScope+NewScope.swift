extension StubScope {
    /// What running a body in a new scope produced: the body's result, and the
    /// problems found when the scope ended.
    public struct Outcome<Value> {
        /// What the body returned or threw.
        public let result: Swift.Result<Value, any Error>
        /// The scope the body ran in.
        public let scope: StubScope
        /// The scope written for messages.
        public let title: String
        /// Every unmatched request, unmet expectation, unusable stub and abandoned
        /// request of the scope; see ``StubProblem/isWarning``.
        public let problems: [StubProblem]
    }

    /// Runs `body` in a new scope and returns its result together with the problems
    /// found when the scope ended, without throwing them.
    ///
    /// This is the building block of ``withStubScope(_:fileID:filePath:line:column:isolation:_:)``
    /// and of test-framework integrations that report each problem on their own
    /// (the `.stubbed` trait of `URLStubsTesting` does). Most code should call
    /// `withStubScope` instead.
    public static func withNewScope<Value>(
        name: String?,
        location: StubSourceLocation,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (StubScope) async throws -> Value
    ) async -> Outcome<Value> {
        let (scope, title) = await StubRegistry.shared.openScope(name: name, parent: bound, location: location)
        let result: Swift.Result<Value, any Error>
        do {
            result = .success(try await $bound.withValue(scope, operation: { try await body(scope) }, isolation: isolation))
        } catch {
            result = .failure(error)
        }
        let problems = await StubRegistry.shared.endScope(scope)
        return Outcome(result: result, scope: scope, title: title, problems: problems)
    }
}

extension StubScope.Outcome: Sendable where Value: Sendable {}
