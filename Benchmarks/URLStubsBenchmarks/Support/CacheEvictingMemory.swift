/// Memory that the cold rows touch, one byte per cache line, before what they time:
/// more than the caches a core has of its own, so that they are emptied, as other
/// work between two of a test's steps empties them.
final class CacheEvictingMemory: @unchecked Sendable {
    // @unchecked: touched by one batch at a time, each awaited before the next.

    /// The bytes touched.
    static let byteCount = 8 << 20

    private let bytes: UnsafeMutableBufferPointer<UInt8>

    /// Allocates and fills the memory.
    init() {
        bytes = .allocate(capacity: Self.byteCount)
        bytes.initialize(repeating: 0)
    }

    deinit {
        bytes.deallocate()
    }

    /// Touches one byte of each cache line.
    func touch() {
        for offset in stride(from: 0, to: bytes.count, by: 64) {
            bytes[offset] &+= 1
        }
    }
}
