/// The results of one measurement, with the baseline they are compared with.
///
/// A section holds paired comparisons (URLStubs against the hand-rolled protocol,
/// shown as one table of sub-rows per comparison, followed by any single-figure
/// rows such as counts), or plain rows (shown as a table of medians and tails).
struct ReportSection: Codable, Sendable {
    /// The measurement's name, as `--filter` takes it.
    var name: String
    /// A heading that says what is measured.
    var title: String
    /// What the rows are compared with.
    var baseline: String
    /// The paired comparisons, in report order.
    var comparisons: [Comparison] = []
    /// The plain rows (baselines first), or the single-figure rows that follow the
    /// comparisons.
    var rows: [ReportRow] = []
    /// Remarks: how each row is measured, checks that ran.
    var notes: [String] = []
    /// How long the measurement took, in seconds.
    var seconds: Double = 0
}
