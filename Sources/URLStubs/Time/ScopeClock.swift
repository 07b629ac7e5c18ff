/// The clock a scope times its answers on: delays, stream intervals, throttling,
/// stalls and request timeouts. The continuous clock unless the test gave its own.
///
/// Nested scopes take the clock of the scope they are nested in unless they are
/// given one. A class: every logged request keeps its scope's clock, and a
/// reference is one retain where the closures and clock inside are four. The
/// continuous clock, which nearly every scope has, is one allocation and reads
/// its time directly (each request reads it); a given clock is read through
/// closures made for it.
final class ScopeClock: Sendable {
    /// A clock the test gave, read through closures made for it (see ``given(_:)``).
    private struct Given: Sendable {
        let sleep: @Sendable (Duration) async -> Bool
        let watch: @Sendable (_ until: Duration) async -> Bool
        let elapsed: @Sendable () -> Duration
    }

    /// The given clock's closures, or `nil` for the continuous clock, which is
    /// read from `start` directly. Two stored properties rather than an enum of
    /// the two: taking a case out of an enum with closures in it copied the whole
    /// enum through the runtime, at every request's clock reading.
    private let given: Given?
    /// When the scope opened, on the continuous clock; unused for a given clock.
    private let start: ContinuousClock.Instant
    /// The clock as the test gave it.
    let base: any Clock<Duration>

    /// Whether this is the continuous clock the scope uses by default.
    var isContinuous: Bool {
        given == nil
    }

    /// Waits `duration` on the clock; `false` when the waiting task is cancelled first.
    func sleep(_ duration: Duration) async -> Bool {
        guard let given else { return await sleepUnlessCancelled(for: duration) }
        return await given.sleep(duration)
    }

    /// Waits until the clock reads `until` since the scope opened (at once when it
    /// already does), for a request's timeout watched while the request waits on
    /// something else; `false` when the waiting task is cancelled first. On a
    /// ``ManualClock`` it is not counted as a sleeper, so that a test waiting for
    /// sleepers sees the wait the request is in, not its timeout; and its deadline
    /// is that instant, not a duration from when the wait began, so that an advance
    /// made before the watch begins still ends it.
    func watch(_ until: Duration) async -> Bool {
        guard let given else { return await sleepUnlessCancelled(for: until - elapsed()) }
        return await given.watch(until)
    }

    /// How much time the clock says has passed since the scope opened.
    func elapsed() -> Duration {
        guard let given else { return start.duration(to: ContinuousClock.now) }
        return given.elapsed()
    }

    /// The continuous clock, with waits kept in one timer heap (see ``Delays``).
    static func continuous() -> ScopeClock {
        ScopeClock(given: nil, start: .now, base: ContinuousClock())
    }

    /// `clock`, as given to a scope.
    static func given<C: Clock>(_ clock: C) -> ScopeClock where C.Duration == Duration {
        if clock is ContinuousClock {
            return .continuous()
        }
        let start = clock.now
        let manual = clock as? ManualClock
        let elapsed: @Sendable () -> Duration = { start.duration(to: clock.now) }
        let watch: @Sendable (Duration) async -> Bool
        if let manual, let manualStart = start as? ManualClock.Instant {
            watch = { until in
                do {
                    try await manual.sleep(until: manualStart.advanced(by: until), isCounted: false)
                    return !Task.isCancelled
                } catch {
                    return false
                }
            }
        } else {
            watch = { await sleepInSteps(for: $0 - elapsed(), on: clock, isCounted: false, manual: nil) }
        }
        let sleep: @Sendable (Duration) async -> Bool = { await sleepInSteps(for: $0, on: clock, isCounted: true, manual: manual) }
        return ScopeClock(given: Given(sleep: sleep, watch: watch, elapsed: elapsed), start: .now, base: clock)
    }

    /// Waits `duration` on `clock` a day at a time, as the continuous clock's
    /// waits: clocks that count in nanoseconds trap on `.seconds(.max)`. On a
    /// manual clock (`manual`, the same clock) the wait is counted as a sleeper
    /// or not, as `isCounted` says.
    private static func sleepInSteps<C: Clock>(for duration: Duration, on clock: C, isCounted: Bool, manual: ManualClock?) async -> Bool where C.Duration == Duration {
        var remaining = max(duration, .zero)
        repeat {
            let step = min(remaining, .seconds(86_400))
            do {
                if let manual {
                    try await manual.sleep(until: manual.now.advanced(by: step), isCounted: isCounted)
                } else {
                    try await clock.sleep(until: clock.now.advanced(by: step), tolerance: nil)
                }
            } catch {
                return false
            }
            remaining -= step
        } while remaining > .zero
        return !Task.isCancelled
    }

    private init(given: Given?, start: ContinuousClock.Instant, base: any Clock<Duration>) {
        self.given = given
        self.start = start
        self.base = base
    }

    /// Waits until the waiting task is cancelled, on no clock: a wait that only a
    /// cancel (or the scope's end, which cancels it) ends.
    static func untilCancelled() async {
        _ = await sleepUnlessCancelled(for: .seconds(Int64.max))
    }
}
