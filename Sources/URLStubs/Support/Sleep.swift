/// Waits `duration`, however long; returns `false` when the task is cancelled first.
///
/// `Task.sleep` traps on a duration it cannot count in nanoseconds (about 292
/// years), and `.seconds(.max)` is a fair way to say "never" in a delay or a
/// timeout: long durations are waited out a day at a time.
func sleepUnlessCancelled(for duration: Duration) async -> Bool {
    var remaining = duration
    let day = Duration.seconds(86_400)
    while remaining > day {
        guard (try? await Task.sleep(for: day)) != nil else { return false }
        remaining -= day
    }
    return (try? await Task.sleep(for: remaining)) != nil
}
