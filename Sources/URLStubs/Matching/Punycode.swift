/// Punycode (RFC 3492): a string of Unicode scalars written with ASCII letters,
/// digits and hyphens only, as internationalized domain names are.
enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 0x80

    /// The Punycode encoding of `input`, without the `xn--` prefix; `nil` when the
    /// input is so long that the encoding's counters would overflow.
    static func encode(_ input: [Unicode.Scalar]) -> String? {
        let codes = input.map { Int($0.value) }
        var output = codes.filter { $0 < initialN }.map { UInt8($0) }
        let basicCount = output.count
        if basicCount > 0 {
            output.append(UInt8(ascii: "-"))
        }
        var n = initialN
        var delta = 0
        var bias = initialBias
        var handled = basicCount
        while handled < codes.count {
            // The smallest code point not handled yet.
            let next = codes.filter { $0 >= n }.min() ?? n
            let (step, stepOverflow) = (next - n).multipliedReportingOverflow(by: handled + 1)
            let (advanced, addOverflow) = delta.addingReportingOverflow(step)
            guard !stepOverflow, !addOverflow else { return nil }
            delta = advanced
            n = next
            for code in codes {
                if code < n {
                    delta += 1
                }
                guard code == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    guard q >= t else { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, points: handled + 1, isFirst: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bias for the next code point (RFC 3492, section 6.1).
    private static func adapt(_ delta: Int, points: Int, isFirst: Bool) -> Int {
        var delta = isFirst ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    /// The ASCII digit of `value` (0...35): `a` to `z`, then `0` to `9`.
    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }
}
