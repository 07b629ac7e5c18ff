/// A paired comparison of URLStubs (the variant) with a baseline on the same kind
/// of task: its figures per side and paired, with the goals they are held to.
struct Comparison: Codable, Sendable {
    /// What the variant does differently, such as `1 stub in the scope`.
    var name: String
    /// How many pairs of batches were measured.
    var pairs: Int
    /// Requests per batch.
    var requestsPerBatch: Int
    /// The figures, one sub-row each.
    var metrics: [ComparisonMetric]
    /// Requests on either side that did not end as expected.
    var unexpected: Int
}
