import Foundation

/// Where the next batch of tests starts in the pool, for each side: each side
/// takes the tests after the ones its previous batch ran.
final class TestRotation: @unchecked Sendable {
    // @unchecked: both counters are read and written only while `lock` is held.
    private let lock = NSLock()
    private let count: Int
    private var baseline = 0
    private var variant = 0

    init(count: Int) {
        self.count = count
    }

    func baselineStart(advancingBy tests: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let start = baseline
        baseline = (baseline + tests) % count
        return start
    }

    func variantStart(advancingBy tests: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let start = variant
        variant = (variant + tests) % count
        return start
    }
}
