import Dispatch

/// Waits `duration`, however long; returns `false` when the task is cancelled first.
///
/// The wait is a ``DelayTimer``, not `Task.sleep`: on Linux a cancelled
/// `Task.sleep` returns at once but leaves its wake-up job and dispatch timer (about
/// 740 bytes) in place until the deadline it was given (swiftlang/swift issue
/// #60441), so every cancelled ten-minute delay held memory for ten minutes. A
/// ``DelayTimer`` is cancelled with the waiting task and lets go of everything then.
///
/// Long durations are waited out a day at a time, so `.seconds(.max)` is a fair way
/// to say "never" in a delay or a timeout.
func sleepUnlessCancelled(for duration: Duration) async -> Bool {
    var remaining = duration
    let day = Duration.seconds(86_400)
    while remaining > day {
        guard await DelayTimer().wait(day) else { return false }
        remaining -= day
    }
    return await DelayTimer().wait(remaining)
}

/// One wait of at most a day on a dispatch timer, cancelled together with the task
/// that waits: whichever comes first, the deadline or the cancellation, ends the
/// wait and cancels the timer, which releases it and its handler at once.
final class DelayTimer: Sendable {
    private enum State {
        /// Not waiting yet.
        case idle
        /// Waiting on `timer`, which resumes `continuation` at the deadline.
        case waiting(CheckedContinuation<Bool, Never>, timer: any DispatchSourceTimer)
        /// The wait ended (or the task was cancelled before it began).
        case ended
    }

    private let state = Locked(State.idle)

    /// Creates a wait that has not started.
    init() {}

    /// Whether the wait has started and its timer is armed.
    var isWaiting: Bool {
        state.withLock { state in
            if case .waiting = state { return true }
            return false
        }
    }

    /// Waits `duration` (at most a day); returns `false` when the calling task is
    /// cancelled first, or already was.
    func wait(_ duration: Duration) async -> Bool {
        guard duration > .zero else { return !Task.isCancelled }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let timer = DispatchSource.makeTimerSource()
                timer.setEventHandler { [self] in end(elapsed: true) }
                timer.schedule(deadline: .now() + .nanoseconds(nanoseconds))
                let armed = state.withLock { state -> Bool in
                    guard case .idle = state else { return false } // Cancelled first.
                    state = .waiting(continuation, timer: timer)
                    return true
                }
                if !armed {
                    timer.cancel()
                }
                // Even a cancelled timer is activated: dispatch traps when an inactive
                // one is released, and activation completes its cancellation.
                timer.activate()
                if !armed {
                    continuation.resume(returning: false)
                }
            }
        } onCancel: {
            end(elapsed: false)
        }
    }

    /// Ends the wait, once: cancels the timer and resumes the waiting task.
    private func end(elapsed: Bool) {
        let waiting = state.withLock { state -> (CheckedContinuation<Bool, Never>, any DispatchSourceTimer)? in
            defer { state = .ended }
            guard case let .waiting(continuation, timer) = state else { return nil }
            return (continuation, timer)
        }
        guard let (continuation, timer) = waiting else { return }
        timer.cancel()
        continuation.resume(returning: elapsed)
    }
}
