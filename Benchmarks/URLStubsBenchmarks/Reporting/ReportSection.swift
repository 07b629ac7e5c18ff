/// The rows of one measurement, with the baseline they are compared with.
struct ReportSection: Codable, Sendable {
    /// The measurement's name, as `--filter` takes it.
    var name: String
    /// A heading that says what is measured.
    var title: String
    /// What the rows are compared with.
    var baseline: String
    /// The measured rows, baselines first.
    var rows: [ReportRow]
    /// Remarks: what each row does, checks that ran, anything surprising.
    var notes: [String] = []
    /// How long the measurement took, in seconds.
    var seconds: Double = 0
}
