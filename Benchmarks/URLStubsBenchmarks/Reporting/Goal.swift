/// A target a figure should reach; reported, never asserted.
struct Goal: Codable, Sendable {
    /// Which figure the goal is about.
    enum Metric: String, Codable, Sendable {
        /// A row's median (or its single value).
        case value
        /// A ratio: a row's ratio to its baseline, or a comparison's median paired ratio.
        case ratio
        /// A comparison's median paired difference (variant minus baseline).
        case difference
    }

    /// How the figure must relate to the limit.
    enum Bound: String, Codable, Sendable {
        /// The figure must not exceed the limit.
        case atMost
        /// The figure must reach the limit.
        case atLeast
        /// The figure must stay strictly below the limit.
        case below
    }

    /// Which figure the goal is about.
    var metric: Metric
    /// How the figure must relate to the limit.
    var bound: Bound
    /// The limit, in the figure's unit (or as a ratio).
    var limit: Double
    /// The limit in words, such as `≤ 20 ns`, `≥ 0.95x` or `≤ +0.10`.
    var text: String

    /// A goal that a value stays at or below `limit`.
    static func valueAtMost(_ limit: Double, _ text: String) -> Goal {
        Goal(metric: .value, bound: .atMost, limit: limit, text: text)
    }

    /// A goal that a value stays strictly below `limit`.
    static func valueBelow(_ limit: Double, _ text: String) -> Goal {
        Goal(metric: .value, bound: .below, limit: limit, text: text)
    }

    /// A goal that a ratio stays at or below `limit`.
    static func ratioAtMost(_ limit: Double) -> Goal {
        Goal(metric: .ratio, bound: .atMost, limit: limit, text: "≤ " + Format.ratio(limit))
    }

    /// A goal that a ratio reaches `limit`.
    static func ratioAtLeast(_ limit: Double) -> Goal {
        Goal(metric: .ratio, bound: .atLeast, limit: limit, text: "≥ " + Format.ratio(limit))
    }

    /// A goal that a difference (variant minus baseline) stays at or below `limit`.
    static func differenceAtMost(_ limit: Double) -> Goal {
        Goal(metric: .difference, bound: .atMost, limit: limit, text: "≤ " + Format.difference(limit))
    }

    /// Judges `figure`: whether it meets the goal, and a verdict such as
    /// `met (≤ 1.10x)` or `MISSED by 0.21x, 19% (≤ 1.10x)`.
    func verdict(for figure: Double, unit: String) -> (met: Bool, text: String) {
        let met = switch bound {
        case .atMost: figure <= limit
        case .atLeast: figure >= limit
        case .below: figure < limit
        }
        if met {
            return (true, "met (\(text))")
        }
        let gap = abs(figure - limit)
        let amount = switch metric {
        case .ratio: Format.ratio(gap)
        case .difference: Format.number(gap, digits: 2)
        case .value: Format.value(gap, unit: unit)
        }
        let percent = limit == 0 || metric == .difference ? "" : ", \(Format.number(gap / abs(limit) * 100, digits: 0))%"
        return (false, "MISSED by \(amount)\(percent) (\(text))")
    }
}
