import Dispatch
import Foundation

extension Duration {
    /// How long a test waits, in real time, for something it expects to happen
    /// before failing with what happened instead: long enough for a machine loaded
    /// by the whole suite (a short test has taken 20 s there on two cores, and a
    /// served exchange 16 s under a sanitizer), short of the suites' one-minute time
    /// limit, so that a failure reads the wait's message, not the time limit's.
    static let patience: Duration = .seconds(45)
}

/// Checks `condition` every `interval` until it holds or `timeout` passes, for a
/// change no callback announces; returns whether it held. The caller's own
/// expectation then says what was wrong.
@discardableResult
func eventually(checkingEvery interval: Duration = .milliseconds(10), within timeout: Duration = .patience, until condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: interval)
    }
    return true
}

extension TimeInterval {
    /// ``Duration/patience`` in seconds, for waits that take a `TimeInterval`.
    static let patience = TimeInterval(Duration.patience.components.seconds)
}

extension DispatchTime {
    /// ``Duration/patience`` from now, for a semaphore's wait.
    static var patienceFromNow: DispatchTime {
        .now() + .seconds(Int(Duration.patience.components.seconds))
    }
}
