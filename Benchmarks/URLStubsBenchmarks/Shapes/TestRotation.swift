import Foundation

/// Where the next batch of tests starts in the pool, for each side: each side
/// takes the tests after the ones its previous batch ran.
final class TestRotation: @unchecked Sendable {
    // @unchecked: `next` is read and written only while `lock` is held.
    private let lock = NSLock()
    private let count: Int
    /// The next start of the baseline's batches, then of the variant's.
    private var next = [0, 0]

    init(count: Int) {
        self.count = count
    }

    /// Where the baseline's next batch of `tests` tests starts.
    func baselineStart(advancingBy tests: Int) -> Int {
        start(side: 0, advancingBy: tests)
    }

    /// Where the variant's next batch of `tests` tests starts.
    func variantStart(advancingBy tests: Int) -> Int {
        start(side: 1, advancingBy: tests)
    }

    private func start(side: Int, advancingBy tests: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let start = next[side]
        next[side] = (start + tests) % count
        return start
    }
}
