/// The list of every goal of the run, with its verdict, at the end of the table.
extension BenchmarkReport {
    /// One goal of the run: where it is, the figure judged, and the verdict.
    struct GoalLine: Sendable {
        /// The section's name, as `--filter` takes it.
        var section: String
        /// The row, or the comparison and its figure.
        var subject: String
        /// The judged figure in words.
        var figure: String
        /// Whether the goal was met.
        var met: Bool
        /// The verdict in words.
        var verdict: String
    }

    /// Every goal judged in this run, in report order.
    var goalLines: [GoalLine] {
        sections.flatMap { section in
            let compared = section.comparisons.flatMap { comparison in
                comparison.metrics.compactMap { metric -> GoalLine? in
                    guard let met = metric.goalMet, let verdict = metric.verdict else { return nil }
                    return GoalLine(section: section.name, subject: "\(comparison.name): \(metric.name)", figure: metric.pairedText ?? "—", met: met, verdict: verdict)
                }
            }
            let rows = section.rows.compactMap { row -> GoalLine? in
                guard let met = row.goalMet, let verdict = row.verdict, let goal = row.goal else { return nil }
                let figure = goal.metric == .ratio ? row.ratio.map(Format.ratio) : row.figure.map { Format.value($0, unit: row.unit) }
                return GoalLine(section: section.name, subject: row.name, figure: figure ?? "—", met: met, verdict: verdict)
            }
            return compared + rows
        }
    }

    /// The goals as a table, then the count met and the run's total time.
    func goalSummary() -> [String] {
        let goals = goalLines
        var table = TextTable(header: ["goal (each measured in this run; comparisons: the paired figure)", "figure", "verdict"])
        for goal in goals {
            table.lines.append(.cells(["\(goal.section): \(goal.subject)", goal.figure, goal.verdict]))
        }
        let met = goals.filter(\.met).count
        return ["## Goals"] + table.render() + ["", "goals met: \(met) of \(goals.count); total time \(Format.number(seconds, digits: 1)) s"]
    }
}
