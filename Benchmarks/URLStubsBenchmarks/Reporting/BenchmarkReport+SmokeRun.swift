/// A smoke run's report judges no goal: its timings mean nothing, and a verdict
/// in CI's log would alarm (or reassure) its readers for no reason.
extension BenchmarkReport {
    /// The report with every verdict taken out: each goal is shown as what it
    /// asks (such as `≤ 1.05x`), judged neither met nor missed.
    func withoutVerdicts() -> BenchmarkReport {
        var report = self
        for sectionIndex in report.sections.indices {
            for comparisonIndex in report.sections[sectionIndex].comparisons.indices {
                for metricIndex in report.sections[sectionIndex].comparisons[comparisonIndex].metrics.indices {
                    var metric = report.sections[sectionIndex].comparisons[comparisonIndex].metrics[metricIndex]
                    metric.goalMet = nil
                    metric.verdict = metric.goal.map { "goal \($0.text)" }
                    report.sections[sectionIndex].comparisons[comparisonIndex].metrics[metricIndex] = metric
                }
            }
            for rowIndex in report.sections[sectionIndex].rows.indices {
                var row = report.sections[sectionIndex].rows[rowIndex]
                row.goalMet = nil
                row.verdict = row.goal.map { "goal \($0.text)" }
                report.sections[sectionIndex].rows[rowIndex] = row
            }
        }
        return report
    }

    /// What the goal list says in a smoke run.
    var smokeRunGoalSummary: [String] {
        [
            "## Goals",
            "Not judged in a --quick smoke run (its timings mean nothing); run without --quick to judge every goal.",
            "",
            "total time \(Format.number(seconds, digits: 1)) s",
        ]
    }
}
