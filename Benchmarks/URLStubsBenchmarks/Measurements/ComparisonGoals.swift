/// The goals a paired comparison's figures are held to; `nil` for a figure reported
/// without one.
struct ComparisonGoals: Sendable {
    /// For the median paired ratio of wall time per request.
    var wall: Goal?
    /// For the median paired ratio of throughput (baseline time / variant time).
    var throughput: Goal?
    /// For the median paired ratio of CPU time per request.
    var cpu: Goal?
    /// For the median paired difference of context switches per request.
    var contextSwitches: Goal?

    /// No goals: the comparison is reported for information.
    static let none = ComparisonGoals()

    /// The goals of a request that URLStubs should serve like the hand-rolled
    /// protocol: wall and CPU time within 5%, at most 0.1 more context switch.
    static let parity = ComparisonGoals(
        wall: .ratioAtMost(1.05),
        cpu: .ratioAtMost(1.05),
        contextSwitches: .differenceAtMost(0.1)
    )
}
