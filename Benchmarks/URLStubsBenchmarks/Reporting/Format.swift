import Foundation

/// Number formatting for the table: fixed digits, thousands separators, units.
enum Format {
    /// `value` with `digits` decimals and `,` between thousands.
    static func number(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "—" }
        let fixed = String(format: "%.\(digits)f", abs(value))
        let parts = fixed.split(separator: ".", maxSplits: 1)
        var whole = String(parts[0])
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        grouped = whole + grouped
        let sign = value < 0 && fixed.contains(where: { $0 != "0" && $0 != "." }) ? "-" : ""
        return sign + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }

    /// A ratio such as `1.07x`.
    static func ratio(_ value: Double) -> String {
        number(value, digits: 2) + "x"
    }

    /// A signed difference such as `+0.02` or `-1.30`.
    static func difference(_ value: Double) -> String {
        let text = number(value, digits: 2)
        return text.hasPrefix("-") ? text : "+" + text
    }

    /// `value` in `unit`, with as many decimals as the unit needs; times of
    /// 1,000 µs and more are shown in milliseconds, and of 10,000 ms in seconds.
    static func value(_ value: Double, unit: String) -> String {
        switch unit {
        case "x":
            return ratio(value)
        case "count", "req/s", "B":
            return number(value, digits: 0) + (unit == "count" ? "" : " " + unit)
        case "per request":
            return number(value, digits: 2)
        case "%":
            return number(value, digits: 0) + "%"
        case "ns":
            return number(value, digits: value < 10 ? 2 : 1) + " ns"
        case "µs" where abs(value) >= 1_000:
            return Self.value(value / 1_000, unit: "ms")
        case "µs":
            return number(value, digits: abs(value) < 10 ? 2 : 1) + " µs"
        case "ms" where abs(value) >= 10_000:
            return number(value / 1_000, digits: 2) + " s"
        case "ms":
            return number(value, digits: abs(value) < 10 ? 2 : 1) + " ms"
        default:
            return number(value, digits: 2) + " " + unit
        }
    }
}
