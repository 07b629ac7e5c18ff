/// The report as a readable text table, one block per measurement.
extension BenchmarkReport {
    /// The report as text: the machine, then each section's rows and notes.
    func table() -> String {
        var lines: [String] = []
        lines.append("URLStubs benchmarks\(quick ? " (--quick smoke run: timings are not meaningful)" : "")")
        lines.append("machine: \(machine.activeProcessors) cores, \(machine.system), Swift \(machine.swift), \(machine.optimized ? "release build" : "DEBUG build (timings are not meaningful)")")
        for section in sections {
            lines.append("")
            lines.append("## \(section.title)  [\(section.name), \(Format.number(section.seconds, digits: 1)) s]")
            lines.append("baseline: \(section.baseline)")
            lines += Self.render(section.rows)
            for note in section.notes {
                lines.append("  - " + note)
            }
        }
        lines.append("")
        let judged = sections.flatMap(\.rows).compactMap(\.goalMet)
        lines.append("goals met: \(judged.filter { $0 }.count) of \(judged.count); total time \(Format.number(seconds, digits: 1)) s")
        return lines.joined(separator: "\n")
    }

    /// The rows as aligned columns under a header.
    private static func render(_ rows: [ReportRow]) -> [String] {
        let header = ["measurement", "median", "p90", "p99", "n", "vs baseline", "goal"]
        let cells = rows.map { row -> [String] in
            let dash = "—"
            let median = row.figure.map { Format.value($0, unit: row.unit) } ?? dash
            let p90 = row.summary.map { Format.value($0.p90, unit: row.unit) } ?? dash
            let p99 = row.summary.map { Format.value($0.p99, unit: row.unit) } ?? dash
            let count = row.summary.map { Format.number(Double($0.count), digits: 0) } ?? dash
            let ratio = row.ratio.map(Format.ratio) ?? (row.summary != nil && row.baseline == nil ? "baseline" : dash)
            return [row.name, median, p90, p99, count, ratio, row.verdict ?? dash]
        }
        let widths = header.indices.map { column in
            ([header] + cells).map { $0[column].count }.max() ?? 0
        }
        /// One row of cells padded to the column widths.
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, text in
                let padding = String(repeating: " ", count: widths[column] - text.count)
                // Names and verdicts read left-aligned, figures right-aligned.
                return column == 0 || column == cells.count - 1 ? text + padding : padding + text
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return [line(header), rule] + cells.map(line)
    }
}

/// Trimming for table lines.
extension String {
    /// The string without spaces at its end.
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " {
            text.removeLast()
        }
        return text
    }
}
