/// One figure of a paired comparison, for both sides: a sub-row of its table.
struct ComparisonMetric: Codable, Sendable {
    /// How the pairs are combined into the paired figure.
    enum Pairing: String, Codable, Sendable {
        /// The median over pairs of variant / baseline (baseline / variant for
        /// throughput, so that above 1 means faster).
        case ratio
        /// The median over pairs of variant minus baseline.
        case difference
    }

    /// What the figure is, such as `CPU time per request`.
    var name: String
    /// The unit of the side figures (`µs`, `req/s`, `per request`).
    var unit: String
    /// The baseline side's figure.
    var baseline: Double?
    /// The variant side's figure.
    var variant: Double?
    /// Variant figure / baseline figure.
    var ratio: Double?
    /// How the paired figure combines the pairs; `nil` when there is none.
    var pairing: Pairing?
    /// The median over pairs of the pair's ratio or difference.
    var paired: Double?
    /// The goal the paired figure is held to, if any.
    var goal: Goal?
    /// Whether the goal was met; `nil` without a goal.
    var goalMet: Bool?
    /// The verdict in words, such as `met (≤ 1.05x)`.
    var verdict: String?

    /// A metric with a figure per side, their ratio, and optionally a paired figure
    /// judged against `goal`.
    init(_ name: String, unit: String, baseline: Double?, variant: Double?, pairing: Pairing? = nil, paired: Double? = nil, goal: Goal? = nil) {
        self.name = name
        self.unit = unit
        self.baseline = baseline
        self.variant = variant
        if let baseline, let variant, baseline != 0 {
            ratio = variant / baseline
        }
        self.pairing = pairing
        self.paired = paired
        guard let goal else { return }
        self.goal = goal
        guard let paired else { return }
        let verdict = goal.verdict(for: paired, unit: unit)
        goalMet = verdict.met
        self.verdict = verdict.text
    }

    /// The paired figure in words: `1.02x` or `+0.03`.
    var pairedText: String? {
        guard let paired, let pairing else { return nil }
        return pairing == .ratio ? Format.ratio(paired) : Format.difference(paired)
    }
}
