/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny generator whose whole output
/// follows from its 64-bit state.
///
/// Seeded faults and response order draw from it rather than from the standard
/// library's generators and `random(in:using:)`, whose algorithms may change
/// between Swift versions, so that a seed replays the same decisions on any
/// toolchain. It is not a cryptographic generator, and deliberately not a
/// `RandomNumberGenerator`, so that no standard algorithm is fed from it by mistake.
struct SplitMix64 {
    /// The state, advanced by the golden-ratio increment at every draw.
    private var state: UInt64

    /// Creates a generator that starts from `state`.
    init(state: UInt64) {
        self.state = state
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<1`, from the top 53 bits of the next draw (every value a
    /// `Double` spaced 2⁻⁵³ apart is equally likely).
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A number in `0..<count` (`count` at least 1), by the multiply-high method:
    /// the high half of the next draw times `count`.
    mutating func next(below count: Int) -> Int {
        precondition(count > 0, "next(below:) needs a count of at least 1")
        return Int(next().multipliedFullWidth(by: UInt64(count)).high)
    }
}
