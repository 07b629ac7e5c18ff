import Dispatch

/// Waits `duration`, however long; returns `false` when the task is cancelled first.
///
/// The wait is one of ``Delays``, not `Task.sleep`: on Linux a cancelled
/// `Task.sleep` returns at once but leaves its wake-up job and dispatch timer (about
/// 740 bytes) in place until the deadline it was given (swiftlang/swift issue
/// #60441), so every cancelled ten-minute delay held memory for ten minutes.
///
/// Long durations are waited out a day at a time, so `.seconds(.max)` is a fair way
/// to say "never" in a delay or a timeout.
func sleepUnlessCancelled(for duration: Duration) async -> Bool {
    var remaining = duration
    let day = Duration.seconds(86_400)
    while remaining > day {
        guard await Delays.shared.wait(day) else { return false }
        remaining -= day
    }
    return await Delays.shared.wait(remaining)
}

/// Waits that end at a deadline or when their task is cancelled, whichever comes
/// first, all timed by one dispatch timer.
///
/// A cancelled wait is forgotten at once, in one critical section: its
/// continuation is resumed and nothing of it stays armed (its deadline stays in the
/// heap, 16 bytes, until the heap is compacted or the deadline comes up). One
/// timer per wait would do the same, but cancelling a dispatch timer wakes
/// dispatch's manager thread and the timer's queue: a scope ending with 10,000
/// delayed answers then cost twice the context switches and CPU time.
///
/// The timer is armed only on ``queue``, where it also fires, so that arming for
/// a new earliest deadline and firing never race.
final class Delays: Sendable {
    /// The delays of the process.
    static let shared = Delays()

    /// One wait; touched only while the lock of the ``Delays`` it waits in is held.
    private final class Wait: @unchecked Sendable {
        // @unchecked: `phase` and `id` are read and written only under `Delays.state`'s lock.

        /// Where a wait is.
        enum Phase {
            /// Not armed yet.
            case idle
            /// Armed: resumed with `true` at the deadline.
            case armed(CheckedContinuation<Bool, Never>)
            /// Ended: by the deadline, or by a cancellation (before it was armed, too).
            case ended
        }

        /// Where the wait is.
        var phase = Phase.idle
        /// Its key in ``State/armed`` once armed.
        var id: UInt64 = 0
    }

    /// A deadline in the heap: when, and which wait it ends.
    private struct Deadline {
        /// Uptime nanoseconds (`DispatchTime`'s clock).
        var at: UInt64
        /// The wait it ends.
        var id: UInt64
    }

    /// Everything the lock protects.
    private struct State {
        /// The armed waits, by id.
        var armed: [UInt64: Wait] = [:]
        /// A min-heap of deadlines; those of waits no longer armed are skipped.
        var heap: [Deadline] = []
        /// The id of the next wait armed.
        var nextID: UInt64 = 1
        /// The deadline the timer is (or is about to be) armed for, if any.
        var timerAt: UInt64?
    }

    /// The waits and deadlines.
    private let state = Locked(State())
    /// Where the timer fires and is armed.
    private let queue = DispatchQueue(label: "URLStubs.delays")
    /// The one timer, armed for the earliest deadline.
    // nonisolated(unsafe): the timer is configured in `init` and then touched only
    // on `queue`, a serial queue (and cancelled in `deinit`, when nothing else can).
    nonisolated(unsafe) private let timer: any DispatchSourceTimer

    /// Creates a set of delays with an idle timer.
    init() {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.activate()
    }

    /// Cancels the timer (only a test's own set of delays ever ends).
    deinit {
        timer.cancel()
    }

    /// How many waits are armed (for tests).
    var armedCount: Int {
        state.withLock { $0.armed.count }
    }

    /// How many deadlines the heap holds, stale ones included (for tests).
    var deadlineCount: Int {
        state.withLock { $0.heap.count }
    }

    /// Waits `duration` (at most a day); returns `false` when the calling task is
    /// cancelled first, or already was.
    func wait(_ duration: Duration) async -> Bool {
        guard duration > .zero else { return !Task.isCancelled }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        let wait = Wait()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let at = DispatchTime.now().uptimeNanoseconds + nanoseconds
                let armed = state.withLock { state -> (armed: Bool, rearm: Bool) in
                    guard case .idle = wait.phase else { return (false, false) } // Cancelled first.
                    wait.phase = .armed(continuation)
                    wait.id = state.nextID
                    state.nextID += 1
                    state.armed[wait.id] = wait
                    Self.push(Deadline(at: at, id: wait.id), into: &state.heap)
                    guard state.timerAt.map({ at < $0 }) ?? true else { return (true, false) }
                    state.timerAt = at
                    return (true, true)
                }
                if armed.rearm {
                    queue.async { [self] in rearm() }
                }
                if !armed.armed {
                    continuation.resume(returning: false)
                }
            }
        } onCancel: {
            cancel(wait)
        }
    }

    /// Ends `wait` with `false`, unless it ended already.
    private func cancel(_ wait: Wait) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            defer { wait.phase = .ended }
            guard case let .armed(continuation) = wait.phase else { return nil }
            state.armed[wait.id] = nil
            // Stale deadlines cost 16 bytes each; rebuild the heap when they outnumber
            // the live ones, so that a burst of cancels leaves next to nothing.
            if state.heap.count > 2 * state.armed.count + 1_024 {
                state.heap = state.heap.filter { state.armed[$0.id] != nil }
                Self.heapify(&state.heap)
            }
            return continuation
        }
        continuation?.resume(returning: false)
    }

    /// Ends every wait whose deadline has come, then arms the timer for the next
    /// one; runs on ``queue``.
    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        var due: [CheckedContinuation<Bool, Never>] = []
        state.withLock { state in
            while let first = state.heap.first, first.at <= now {
                Self.popFirst(from: &state.heap)
                guard let wait = state.armed.removeValue(forKey: first.id), case let .armed(continuation) = wait.phase else { continue }
                wait.phase = .ended
                due.append(continuation)
            }
        }
        for continuation in due {
            continuation.resume(returning: true)
        }
        rearm()
    }

    /// Arms the timer for the earliest deadline still armed, or idles it; runs on
    /// ``queue``.
    private func rearm() {
        let next = state.withLock { state -> UInt64? in
            while let first = state.heap.first, state.armed[first.id] == nil {
                Self.popFirst(from: &state.heap)
            }
            state.timerAt = state.heap.first?.at
            return state.timerAt
        }
        timer.schedule(deadline: next.map { DispatchTime(uptimeNanoseconds: $0) } ?? .distantFuture)
    }

    // MARK: The heap

    /// Adds `deadline` to `heap`.
    private static func push(_ deadline: Deadline, into heap: inout [Deadline]) {
        heap.append(deadline)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].at < heap[parent].at else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the earliest deadline of `heap`, which must not be empty.
    private static func popFirst(from heap: inout [Deadline]) {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        siftDown(0, in: &heap)
    }

    /// Puts `heap`'s elements in heap order.
    private static func heapify(_ heap: inout [Deadline]) {
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) {
            siftDown(index, in: &heap)
        }
    }

    /// Moves the element at `start` down until neither child is earlier.
    private static func siftDown(_ start: Int, in heap: inout [Deadline]) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].at < heap[smallest].at { smallest = left }
            if right < heap.count, heap[right].at < heap[smallest].at { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
