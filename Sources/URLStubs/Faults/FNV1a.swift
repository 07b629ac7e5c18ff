/// The 64-bit FNV-1a hash (Fowler, Noll and Vo): a fixed function of the bytes fed
/// to it, the same in every process.
///
/// Used for the identity of a request in seeded decisions instead of `Hasher`,
/// which is seeded randomly in every process and so could never replay a run.
struct FNV1a {
    /// The hash of the bytes fed so far.
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    /// Feeds one byte.
    mutating func combine(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// Feeds the eight bytes of `number`, least significant first.
    mutating func combine(_ number: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            combine(UInt8(truncatingIfNeeded: number >> UInt64(shift)))
        }
    }

    /// Feeds the UTF-8 bytes of `text`.
    mutating func combine(_ text: String) {
        for byte in text.utf8 {
            combine(byte)
        }
    }
}
