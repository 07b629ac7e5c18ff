/// Reading and setting a scenario's state from a test.
extension StubScenario {
    /// The state the scenario is in now, or `nil` once its scope has ended (or when
    /// the scenario could not be created).
    nonisolated(nonsending) public var state: String? {
        get async {
            StubRegistry.shared.state(of: self)
        }
    }

    /// Puts the scenario in `state`, as a stub's transition would.
    ///
    /// The move is atomic with the matching of requests: a request sees the state
    /// from before it or from after it. An empty state is not applied and is
    /// reported when the scope ends, at this call's location.
    nonisolated(nonsending) public func move(
        to state: String,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        StubRegistry.shared.move(self, to: state, at: location)
    }
}
