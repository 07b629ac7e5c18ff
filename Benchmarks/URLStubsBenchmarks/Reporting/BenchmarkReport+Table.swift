/// The report as a readable text table, one block per measurement, then the goals.
extension BenchmarkReport {
    /// The report as text: the machine, each section's table and notes, the goals.
    func table() -> String {
        var lines: [String] = []
        lines.append("URLStubs benchmarks\(quick ? " (--quick smoke run: timings are not meaningful)" : "")")
        lines.append("machine: \(machine.activeProcessors) cores, \(machine.system), \(machine.processor), Swift \(machine.swift), \(machine.optimized ? "release build" : "DEBUG build (timings are not meaningful)")")
        for section in sections {
            lines.append("")
            lines.append("## \(section.title)  [\(section.name), \(Format.number(section.seconds, digits: 1)) s]")
            lines.append("baseline: \(section.baseline)")
            let table = section.comparisons.isEmpty ? Self.rowTable(section.rows) : Self.comparisonTable(section)
            lines += table.render()
            for note in section.notes {
                lines.append("  - " + note)
            }
        }
        lines.append("")
        lines += quick ? smokeRunGoalSummary : goalSummary()
        return lines.joined(separator: "\n")
    }

    /// Plain rows: median, tails, count, ratio to the baseline row, goal.
    static func rowTable(_ rows: [ReportRow]) -> TextTable {
        var table = TextTable(header: ["measurement", "median", "p90", "p99", "n", "vs baseline", "goal"])
        let dash = "—"
        for row in rows {
            let median = row.figure.map { Format.value($0, unit: row.unit) } ?? dash
            let p90 = row.summary.map { Format.value($0.p90, unit: row.unit) } ?? dash
            let p99 = row.summary.map { Format.value($0.p99, unit: row.unit) } ?? dash
            let count = row.summary.map { Format.number(Double($0.count), digits: 0) } ?? dash
            let ratio = row.ratio.map(Format.ratio) ?? (row.isReference ? "baseline" : dash)
            table.lines.append(.cells([row.name, median, p90, p99, count, ratio, row.verdict ?? dash]))
        }
        return table
    }

    /// Paired comparisons: a title line per comparison, a sub-row per figure with
    /// both sides, their ratio and the paired figure; then single-figure rows.
    static func comparisonTable(_ section: ReportSection) -> TextTable {
        var table = TextTable(header: ["per request", "hand-rolled", "URLStubs", "ratio", "paired", "goal"])
        let dash = "—"
        for comparison in section.comparisons {
            let size = Format.number(Double(comparison.requestsPerBatch), digits: 0)
            let pairs = Format.number(Double(comparison.pairs), digits: 0)
            table.lines.append(.text("\(comparison.name)  [\(pairs) pairs of \(size)-request batches]"))
            for metric in comparison.metrics {
                table.lines.append(.cells([
                    "  " + metric.name,
                    metric.baseline.map { Format.value($0, unit: metric.unit) } ?? dash,
                    metric.variant.map { Format.value($0, unit: metric.unit) } ?? dash,
                    metric.ratio.map(Format.ratio) ?? dash,
                    metric.pairedText ?? dash,
                    metric.verdict ?? dash,
                ]))
            }
        }
        for row in section.rows {
            table.lines.append(.cells([row.name, dash, row.figure.map { Format.value($0, unit: row.unit) } ?? dash, dash, dash, row.verdict ?? dash]))
        }
        return table
    }
}
