/// One line of the report: a measured figure, its baseline ratio and its goal.
struct ReportRow: Codable, Sendable {
    /// What the row measures, in words.
    var name: String
    /// The unit of the figures (`ns`, `µs`, `req/s`, `MiB`, `x`, `count`).
    var unit: String
    /// The median and tail of the samples, for rows measured many times.
    var summary: SampleSummary?
    /// The single figure of a row computed once (a flatness, a count, a memory size).
    var value: Double?
    /// Whether larger figures are better (throughput), so tails are the low end.
    var higherIsBetter = false
    /// The name of the row this one is compared with; `nil` for a baseline itself.
    var baseline: String?
    /// Whether other rows are compared with this one (it is shown as `baseline`).
    var isReference = false
    /// This row's median divided by its baseline's median.
    var ratio: Double?
    /// The goal this row is judged against, if any.
    var goal: Goal?
    /// Whether the goal was met; `nil` without a goal.
    var goalMet: Bool?
    /// The verdict in words, such as `met (≤ 20 ns)`.
    var verdict: String?

    /// The row's headline figure: the median, or the single value.
    var figure: Double? {
        summary?.median ?? value
    }

    /// A row measured many times; `isReference` says whether other rows are
    /// compared with it (by default, when it is compared with none).
    static func samples(
        _ name: String,
        unit: String,
        _ samples: [Double],
        higherIsBetter: Bool = false,
        baseline: ReportRow? = nil,
        isReference: Bool? = nil,
        goal: Goal? = nil
    ) -> ReportRow {
        var row = ReportRow(name: name, unit: unit, summary: SampleSummary(samples, higherIsBetter: higherIsBetter))
        row.higherIsBetter = higherIsBetter
        // By default a row compared with nothing is a baseline for the others.
        row.isReference = isReference ?? (baseline == nil)
        if let baseline, let mine = row.figure, let theirs = baseline.figure, theirs != 0 {
            row.baseline = baseline.name
            row.ratio = mine / theirs
        }
        row.judge(goal)
        return row
    }

    /// A row with one computed figure.
    static func single(_ name: String, unit: String, _ value: Double, goal: Goal? = nil) -> ReportRow {
        var row = ReportRow(name: name, unit: unit, value: value)
        row.judge(goal)
        return row
    }

    /// Records `goal` and the verdict on this row's figure.
    private mutating func judge(_ goal: Goal?) {
        guard let goal else { return }
        self.goal = goal
        let figure = goal.metric == .ratio ? ratio : self.figure
        guard let figure else { return }
        let verdict = goal.verdict(for: figure, unit: unit)
        goalMet = verdict.met
        self.verdict = verdict.text
    }
}
