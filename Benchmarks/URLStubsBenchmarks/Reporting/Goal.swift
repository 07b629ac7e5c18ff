/// A target a row's figure should reach; reported, never asserted.
struct Goal: Codable, Sendable {
    /// Which figure of the row the goal is about.
    enum Metric: String, Codable, Sendable {
        /// The row's median (or its single value).
        case value
        /// The row's ratio to its baseline.
        case ratio
    }

    /// Whether the figure must stay below or reach the limit.
    enum Bound: String, Codable, Sendable {
        /// The figure must not exceed the limit.
        case atMost
        /// The figure must reach the limit.
        case atLeast
    }

    /// Which figure of the row the goal is about.
    var metric: Metric
    /// Whether the figure must stay below or reach the limit.
    var bound: Bound
    /// The limit, in the row's unit (or as a ratio).
    var limit: Double
    /// The limit in words, such as `≤ 20 ns` or `≥ 0.90x`.
    var text: String

    /// A goal that the row's median (or value) stays at or below `limit`.
    static func valueAtMost(_ limit: Double, _ text: String) -> Goal {
        Goal(metric: .value, bound: .atMost, limit: limit, text: text)
    }

    /// A goal that the row's ratio to its baseline stays at or below `limit`.
    static func ratioAtMost(_ limit: Double) -> Goal {
        Goal(metric: .ratio, bound: .atMost, limit: limit, text: "≤ " + Format.ratio(limit))
    }

    /// A goal that the row's ratio to its baseline reaches `limit`.
    static func ratioAtLeast(_ limit: Double) -> Goal {
        Goal(metric: .ratio, bound: .atLeast, limit: limit, text: "≥ " + Format.ratio(limit))
    }

    /// Judges `figure`: whether it meets the goal, and a verdict such as
    /// `met (≤ 1.10x)` or `missed by 0.21x, 19% (≤ 1.10x)`.
    func verdict(for figure: Double, unit: String) -> (met: Bool, text: String) {
        let met = bound == .atMost ? figure <= limit : figure >= limit
        if met {
            return (true, "met (\(text))")
        }
        let gap = abs(figure - limit)
        let amount = metric == .ratio ? Format.ratio(gap) : Format.value(gap, unit: unit)
        let percent = limit == 0 ? "" : ", \(Format.number(gap / abs(limit) * 100, digits: 0))%"
        return (false, "MISSED by \(amount)\(percent) (\(text))")
    }
}
