/// A set of ASCII bytes, tested with one shift and one mask.
///
/// The character classes of URLs (unreserved, path, host, ...) are tested for each
/// byte of every stub's URL and of every request's, and tests run in debug builds,
/// where generic library code is neither specialized nor inlined: there a `switch`
/// over character ranges is a chain of generic `~=` calls for each byte, and a
/// membership test here stays a few instructions.
struct ASCIISet: Sendable {
    /// Bytes 0-63, one bit each.
    private var low: UInt64 = 0
    /// Bytes 64-127, one bit each.
    private var high: UInt64 = 0

    /// The set of the bytes of `characters`, which must all be ASCII.
    init(_ characters: StaticString) {
        let bytes = UnsafeBufferPointer(start: characters.utf8Start, count: characters.utf8CodeUnitCount)
        for byte in bytes {
            precondition(byte < 128, "ASCIISet holds ASCII bytes only")
            if byte < 64 {
                low |= 1 &<< UInt64(byte)
            } else {
                high |= 1 &<< UInt64(byte &- 64)
            }
        }
    }

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The bytes of this set and of `other`.
    func union(_ other: ASCIISet) -> ASCIISet {
        ASCIISet(low: low | other.low, high: high | other.high)
    }

    /// The ASCII bytes not in this set.
    func inverted() -> ASCIISet {
        ASCIISet(low: ~low, high: ~high)
    }

    /// Whether `byte` is in the set (never a byte of 128 or more).
    func contains(_ byte: UInt8) -> Bool {
        let bit = UInt64(byte)
        if bit < 64 {
            return low &>> bit & 1 == 1
        }
        return bit < 128 && high &>> (bit &- 64) & 1 == 1
    }
}
