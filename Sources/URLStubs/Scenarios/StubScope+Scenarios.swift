/// Creating scenarios.
extension StubScope {
    /// Creates the scenario `name` of this scope, in the state `start`; if the scope
    /// already has a scenario of that name, returns it, in the state it is in now.
    ///
    /// ```swift
    /// let cart = await scope.scenario("cart", startingIn: "empty")
    /// await scope.stub(.post("https://shop.example/cart/items"), with: .status(201), when: cart.is("empty"), then: cart.transition(to: "filled"))
    /// ```
    ///
    /// Bad input does not crash: an empty name or start state, or a start state
    /// other than the one the scenario was first created with, is reported when the
    /// scope ends, at this call's location (and a stub naming a scenario that could
    /// not be created is refused).
    ///
    /// - Parameters:
    ///   - name: The scenario's name, unique in the scope, such as `"cart"`.
    ///   - start: The state the scenario starts in, such as `"empty"`.
    ///   - fileID: The file of the call, for reports; leave it to its default.
    ///   - filePath: The path of that file, for reports; leave it to its default.
    ///   - line: The line of the call, for reports; leave it to its default.
    ///   - column: The column of the call, for reports; leave it to its default.
    /// - Returns: A handle to give stubs conditions and transitions, and to read or
    ///   set the scenario's state.
    nonisolated(nonsending) public func scenario(
        _ name: String,
        startingIn start: String,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async -> StubScenario {
        let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        StubRegistry.shared.createScenario(name, startingIn: start, at: location, in: self)
        return StubScenario(name: name, scope: self)
    }
}
