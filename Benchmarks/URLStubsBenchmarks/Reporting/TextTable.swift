/// Aligned text columns: the first and last left-aligned, figures right-aligned.
struct TextTable: Sendable {
    /// A line of the table: cells in columns, or free text across the columns.
    enum Line: Sendable {
        /// Cells, one per column.
        case cells([String])
        /// Text printed as it is, not counted in the column widths.
        case text(String)
    }

    /// The column headings.
    var header: [String]
    /// The lines under the heading rule.
    var lines: [Line] = []

    /// The table as text lines: heading, rule, lines.
    func render() -> [String] {
        let rows = [header] + lines.compactMap { line -> [String]? in
            if case let .cells(cells) = line { return cells }
            return nil
        }
        let widths = header.indices.map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        /// One row of cells padded to the column widths.
        func format(_ cells: [String]) -> String {
            cells.enumerated().map { column, text in
                let padding = String(repeating: " ", count: max(widths[column] - text.count, 0))
                return column == 0 || column == cells.count - 1 ? text + padding : padding + text
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return [format(header), rule] + lines.map { line in
            switch line {
            case let .cells(cells): format(cells)
            case let .text(text): text
            }
        }
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
