extension StubProblem {
    /// The same problem, its message ending with the seed lines `note` (unless it
    /// ends with them already).
    func noting(_ note: String) -> StubProblem {
        StubProblem(kind: kind, message: FaultMessages.noting(message, note), location: location, severity: severity)
    }
}
