/// What the manual clock says when a test waits in vain.
enum TimeMessages {
    static func sleepersTimedOut(expected: Int, sleeping: [ManualClock.Instant], now: ManualClock.Instant, timeout: Duration) -> String {
        let wanted = expected == 1 ? "1 task" : "\(expected) tasks"
        let found: String
        switch sleeping.count {
        case 0:
            found = "no task is sleeping on it"
        case 1:
            found = "only 1 task is sleeping on it, until \(sleeping[0].offset)"
        default:
            found = "only \(sleeping.count) tasks are sleeping on it, until " + sleeping.map { "\($0.offset)" }.joined(separator: ", ")
        }
        return "ManualClock: waited \(timeout) for \(wanted) to sleep on the clock (now at \(now.offset)), but \(found). The code under test finished, failed, awaits something other than this clock (a request, another task), or sleeps on another clock."
    }
}
