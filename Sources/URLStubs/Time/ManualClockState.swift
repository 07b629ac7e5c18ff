/// Everything a ``ManualClock`` keeps under its lock: the time, the sleepers in
/// the order they wake, the tasks waiting for sleepers, and the wake-up being
/// handed off.
///
/// Only the clock touches it, and only inside `Locked.withLock`; its methods never
/// resume a continuation, they return those to resume once the lock is let go.
struct ManualClockState {
    /// The continuation of a sleep, or of a wait for sleepers.
    typealias Continuation = CheckedContinuation<Void, any Error>

    /// Where one sleep, or one wait for sleepers, stands.
    enum Phase {
        /// Begun, its continuation not stored yet.
        case starting
        /// Cancelled while starting: it ends with `CancellationError` when it would
        /// have stored its continuation.
        case cancelled
        /// Suspended: resumed by a wake-up, by enough sleepers or by cancellation.
        case suspended(Continuation)
    }

    /// A sleeper in ``queue``: when it wakes, which sleep it is, and in which task.
    struct Sleeper {
        /// The instant it wakes at.
        var deadline: ManualClock.Instant
        /// Its id, given in the order sleeps began: it breaks ties between deadlines.
        var id: UInt64
        /// The task it sleeps in (see ``ManualClock/currentTaskKey()``).
        var task: Int
        /// Whether it counts as a sleeper (``ManualClock/sleeperCount``): `false`
        /// for a request's timeout, watched while the request waits on something else.
        var isCounted = true

        /// Whether it wakes before `other`: earlier deadline first, then earlier start.
        func wakes(before other: Sleeper) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : id < other.id
        }
    }

    /// A wait for sleepers in ``waiters``: which wait, and how many sleepers it needs.
    struct Waiter {
        /// Its id, a key of ``phases``.
        var id: UInt64
        /// How many sleepers end the wait.
        var atLeast: Int
    }

    /// The wake-up an advance is handing off: the sleeper it resumed, until that
    /// sleeper's task has run again and either slept again or had its chance to.
    struct Handoff {
        /// The id of the sleep resumed.
        var id: UInt64
        /// The task it slept in.
        var task: Int
        /// Whether that task has run again (its sleep is returning).
        var acknowledged = false
        /// Whether that task, having run again, began another sleep on this clock.
        var sleepsAgain = false
        /// The advance waiting for the acknowledgement, if it is waiting already.
        var advance: CheckedContinuation<Void, Never>?
    }

    /// The clock's time.
    var now = ManualClock.Instant.zero
    /// The id of the next sleep or wait.
    var nextID: UInt64 = 1
    /// The sleeps and waits that have begun and not ended, by id.
    var phases: [UInt64: Phase] = [:]
    /// The suspended sleepers, latest to wake first: the next one to wake is last.
    var queue: [Sleeper] = [] {
        didSet { countedSleepers = queue.reduce(0) { $0 + ($1.isCounted ? 1 : 0) } }
    }
    /// How many sleepers in ``queue`` count as sleepers.
    private(set) var countedSleepers = 0
    /// The suspended waits for sleepers, in the order they began.
    var waiters: [Waiter] = []
    /// The wake-up being handed off, while an advance hands one off.
    var handoff: Handoff?
    /// Whether an advance (or a run) is under way.
    var advancing = false
    /// The advances waiting for the one under way to finish, first come first.
    var queuedAdvances: [CheckedContinuation<Void, Never>] = []

    /// Gives an id to a new sleep or wait, whose phase is ``Phase/starting``.
    mutating func begin() -> UInt64 {
        let id = nextID
        nextID += 1
        phases[id] = .starting
        return id
    }

    // MARK: Sleepers

    /// What became of a sleep that tried to suspend.
    enum Suspension {
        /// It is in the queue; these waits for sleepers have enough now.
        case suspended(satisfied: [Continuation])
        /// It was cancelled while starting.
        case cancelled
        /// Its deadline was reached while it was starting.
        case reached
    }

    /// Suspends the sleep `sleeper` (begun with ``begin()``) with `continuation`,
    /// unless it was cancelled or its deadline was reached meanwhile.
    mutating func suspend(_ sleeper: Sleeper, with continuation: Continuation) -> Suspension {
        if case .cancelled = phases[sleeper.id] {
            phases[sleeper.id] = nil
            return .cancelled
        }
        guard sleeper.deadline > now else {
            phases[sleeper.id] = nil
            return .reached
        }
        phases[sleeper.id] = .suspended(continuation)
        queue.insert(sleeper, at: queueIndex(of: sleeper))
        if let handoff, handoff.acknowledged, handoff.task == sleeper.task {
            self.handoff?.sleepsAgain = true
        }
        return .suspended(satisfied: satisfiedWaiters())
    }

    /// Ends the sleep `sleeper` for a cancellation: the continuation to resume with
    /// `CancellationError`, if it was suspended.
    mutating func cancel(_ sleeper: Sleeper) -> Continuation? {
        switch phases[sleeper.id] {
        case .starting:
            phases[sleeper.id] = .cancelled
            return nil
        case let .suspended(continuation):
            phases[sleeper.id] = nil
            let index = queueIndex(of: sleeper)
            if index < queue.count, queue[index].id == sleeper.id {
                queue.remove(at: index)
            }
            return continuation
        case .cancelled, nil:
            return nil // Ended already (woken, or cancelled twice).
        }
    }

    /// Takes the next sleeper to wake if its deadline is not after `limit` (any
    /// deadline when `limit` is nil), moves ``now`` to its deadline and starts
    /// handing it off; when there is none, moves ``now`` to `limit`.
    mutating func wakeNext(notAfter limit: ManualClock.Instant?) -> Continuation? {
        guard let next = queue.last, limit.map({ next.deadline <= $0 }) ?? true else {
            if let limit, limit > now { now = limit }
            return nil
        }
        queue.removeLast()
        if next.deadline > now { now = next.deadline }
        handoff = Handoff(id: next.id, task: next.task)
        guard case let .suspended(continuation) = phases.removeValue(forKey: next.id) else {
            preconditionFailure("a queued sleeper is suspended")
        }
        return continuation
    }

    /// Records that the sleep `id` has returned in its task: the advance to resume,
    /// if it is waiting for that.
    mutating func acknowledge(_ id: UInt64) -> CheckedContinuation<Void, Never>? {
        guard handoff?.id == id else { return nil }
        handoff?.acknowledged = true
        defer { handoff?.advance = nil }
        return handoff?.advance
    }

    /// Where `sleeper` goes in (or is found in) ``queue``, latest to wake first.
    private func queueIndex(of sleeper: Sleeper) -> Int {
        var low = 0
        var high = queue.count
        while low < high {
            let middle = (low + high) / 2
            if sleeper.wakes(before: queue[middle]) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    // MARK: Waiting for sleepers

    /// What became of a wait for sleepers that tried to suspend.
    enum WaitSuspension {
        /// It waits for more sleepers.
        case suspended
        /// It was cancelled while starting.
        case cancelled
        /// Enough sleepers came while it was starting.
        case satisfied
    }

    /// Suspends the wait `id` (begun with ``begin()``) for `atLeast` sleepers with
    /// `continuation`, unless it was cancelled or has enough sleepers already.
    mutating func suspendWaiter(_ id: UInt64, atLeast: Int, with continuation: Continuation) -> WaitSuspension {
        if case .cancelled = phases[id] {
            phases[id] = nil
            return .cancelled
        }
        guard countedSleepers < atLeast else {
            phases[id] = nil
            return .satisfied
        }
        phases[id] = .suspended(continuation)
        waiters.append(Waiter(id: id, atLeast: atLeast))
        return .suspended
    }

    /// Ends the wait for sleepers `id` for a cancellation: the continuation to
    /// resume with `CancellationError`, if it was suspended.
    mutating func cancelWaiter(_ id: UInt64) -> Continuation? {
        switch phases[id] {
        case .starting:
            phases[id] = .cancelled
            return nil
        case let .suspended(continuation):
            phases[id] = nil
            waiters.removeAll { $0.id == id }
            return continuation
        case .cancelled, nil:
            return nil
        }
    }

    /// Takes the waits for sleepers that ``queue`` now has enough sleepers for.
    private mutating func satisfiedWaiters() -> [Continuation] {
        guard waiters.contains(where: { $0.atLeast <= countedSleepers }) else { return [] }
        var satisfied: [Continuation] = []
        waiters.removeAll { waiter in
            guard waiter.atLeast <= countedSleepers else { return false }
            if case let .suspended(continuation) = phases.removeValue(forKey: waiter.id) {
                satisfied.append(continuation)
            }
            return true
        }
        return satisfied
    }
}
