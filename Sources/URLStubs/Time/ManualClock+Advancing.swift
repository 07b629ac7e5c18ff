extension ManualClock {
    /// Moves the clock's time forward by `duration`, waking, one at a time and in
    /// order, every sleeper whose deadline it reaches.
    ///
    /// The same as `advance(to: now.advanced(by: duration))`, with `now` read once
    /// any advance already under way has finished. A zero or negative `duration`
    /// moves nothing and wakes nobody (time never goes back).
    public func advance(by duration: Duration) async {
        await advance(toInstantFrom: { $0.advanced(by: max(duration, .zero)) })
    }

    /// Moves the clock's time forward to `deadline`, waking, one at a time and in
    /// order, every sleeper whose deadline it reaches, including sleeps begun by the
    /// sleepers it wakes.
    ///
    /// An instant not after ``now`` moves nothing and wakes nobody (time never goes
    /// back). Otherwise the advance steps from deadline to deadline. At each step it
    /// sets ``now`` to the deadline of the next sleeper (earliest deadline first,
    /// then the sleep that began first), resumes that sleeper alone, and waits,
    /// with ``now`` held at that deadline:
    ///
    /// 1. **Until the woken task runs again**, that is until the sleeper's `sleep`
    ///    call is returning in its own task. This wait has no bound and does not
    ///    depend on timing: a resumed task always runs again.
    /// 2. **Then until that task begins another sleep on this clock, for at most
    ///    ``settlingYields`` yields** (`Task.yield()`; never a wall-clock wait).
    ///    Code that goes straight from one sleep to the next, as a polling or
    ///    retry loop with no other suspension in between does, usually gets there
    ///    before the advance has yielded once, and the advance goes on at once, the
    ///    next sleep measured from the deadline the task woke at. Code that
    ///    finishes, or suspends on something else (a request, a stream, another
    ///    task), tells the clock nothing: the advance spends all its yields, then
    ///    goes on without it.
    ///
    /// When no sleeper is left with a deadline up to `deadline`, it sets ``now`` to
    /// `deadline` and returns.
    ///
    /// **Guaranteed** once `advance` returns, whatever the timing:
    /// - every sleeper that was sleeping with a deadline up to `deadline` has been
    ///   woken, exactly once, in order of deadline, then of the start of its sleep;
    ///   ``now`` was that deadline when it was resumed; its task had run again
    ///   before the next sleeper was resumed, and before `advance` returned;
    /// - when a woken task's next suspension is a sleep on this clock, reached in
    ///   the yields of step 2, everything it did before that sleep happened before
    ///   the next sleeper was resumed, and that sleep, if due by `deadline`, has
    ///   been woken too;
    /// - no sleeper whose deadline is after `deadline` has been woken, and ``now``
    ///   equals `deadline` (or stays where it was, when that is later);
    /// - concurrent advances and runs are carried out one after another, in the
    ///   order they were called, each from the time the previous one left.
    ///
    /// **Not guaranteed**: that a woken task has done anything beyond returning from
    /// its sleep, unless it then sleeps on this clock again in time. A task whose
    /// thread the system preempts on its way to the next sleep may miss step 2's
    /// yields (rare, and only on a busy machine; a larger ``settlingYields`` makes it
    /// rarer still), and code that finishes, awaits a request or hands work to other
    /// tasks may still be running when `advance` returns. To know for certain that
    /// the code under test sleeps again, await ``waitForSleepers(atLeast:)``; to
    /// know that it has finished, await its task.
    ///
    /// Each wake-up costs the advance up to ``settlingYields`` yields, all of them
    /// when the woken task does not sleep on this clock again. The advance ignores
    /// cancellation: it finishes its steps, which all end, as a woken task always
    /// runs again. The number of steps has no bound: a task sleeping a nanosecond
    /// in a loop is woken once per nanosecond up to `deadline`.
    public func advance(to deadline: Instant) async {
        await advance(toInstantFrom: { _ in deadline })
    }

    /// Advances the clock from deadline to deadline until no task sleeps on it,
    /// including sleeps begun by the sleepers it wakes, or until it has woken
    /// `maxWakeUps` sleepers.
    ///
    /// The sleepers are those ``sleeperCount`` counts: a stubbed request's
    /// timeout, watched while the request waits on something else (a computed
    /// answer's closure awaiting another task), does not keep the run going, so a
    /// run does not time such a request out unless a sleeper's deadline takes the
    /// clock past it.
    ///
    /// Each step is one of ``advance(to:)``'s, with the same guarantees: ``now``
    /// moves to the next sleeper's deadline, that sleeper is resumed, and the run
    /// waits until its task runs again, then until it sleeps again on this clock
    /// for at most ``settlingYields`` yields. A sleep begun later than that (after
    /// a request, say) is not seen: the run may return before it begins. The bound
    /// on wake-ups stops a task that sleeps in an endless loop; at the default,
    /// ten thousand, it is far more than a test's code sleeps, and the run's cost
    /// stays bounded (each wake-up costs at most ``settlingYields`` yields).
    ///
    /// `true` means that no task sleeps on the clock at the moment the run
    /// returns, not that none will: code that sleeps again after something other
    /// than this clock (a request, a stream's next piece, another task) may begin
    /// that sleep after the run has returned. A test that expects such a sleep
    /// awaits it with ``waitForSleepers(atLeast:timeout:)`` and runs or advances
    /// again, so that it fails, saying what is sleeping, instead of hanging.
    ///
    /// - Parameter maxWakeUps: how many sleepers the run wakes at most (negative
    ///   values count as zero).
    /// - Returns: `true` when no task sleeps on the clock any more (as
    ///   ``sleeperCount`` counts), `false` when the run stopped at `maxWakeUps`
    ///   with sleepers left.
    @discardableResult
    public func run(maxWakeUps: Int = 10_000) async -> Bool {
        await startAdvancing()
        var wakeUps = 0
        while wakeUps < maxWakeUps, state.withLock({ $0.countedSleepers > 0 }), await wakeNext(notAfter: nil) {
            wakeUps += 1
        }
        let isIdle = state.withLock { $0.countedSleepers == 0 }
        finishAdvancing()
        return isIdle
    }

    /// Advances to the instant `target` computes from ``now``, once any advance under
    /// way has finished.
    private func advance(toInstantFrom target: (Instant) -> Instant) async {
        await startAdvancing()
        let deadline = target(now)
        while await wakeNext(notAfter: deadline) {}
        finishAdvancing()
    }

    /// Wakes the next sleeper due by `limit` (any, when nil) and waits for its task
    /// to run again and to settle; when none is due, moves ``now`` to `limit`.
    /// Returns whether it woke one.
    private func wakeNext(notAfter limit: Instant?) async -> Bool {
        guard let sleeper = state.withLock({ $0.wakeNext(notAfter: limit) }) else {
            return false
        }
        sleeper.resume()
        // 1. Until the woken task runs again. The advance yields for a while before
        // it suspends for the sleeper to resume it: that resume has to wake a worker
        // thread for the advance, and on a busy machine the system may then preempt
        // the sleeper's thread on its way to its next sleep, which makes step 2 wait
        // longer, or give up.
        var yields = 0
        while yields < settlingYields, !hasRunAgain {
            await Task.yield()
            yields += 1
        }
        if !hasRunAgain {
            await suspendUntilRunAgain()
        }
        // 2. Until it sleeps again on this clock, or for so many yields.
        for _ in 0..<settlingYields {
            guard !state.withLock({ $0.handoff?.sleepsAgain ?? true }) else { break }
            await Task.yield()
        }
        state.withLock { $0.handoff = nil }
        return true
    }

    /// Whether the task of the wake-up being handed off has run again.
    private var hasRunAgain: Bool {
        state.withLock { $0.handoff?.acknowledged ?? true }
    }

    /// Suspends until the task of the wake-up being handed off has run again.
    private func suspendUntilRunAgain() async {
        await withCheckedContinuation { (advance: CheckedContinuation<Void, Never>) in
            let hasRun = state.withLock { state -> Bool in
                guard state.handoff?.acknowledged == false else { return true }
                state.handoff?.advance = advance
                return false
            }
            if hasRun {
                advance.resume()
            }
        }
    }

    /// Waits for any advance under way, and those called before, to finish, then
    /// marks one under way.
    private func startAdvancing() async {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let isFree = state.withLock { state -> Bool in
                guard state.advancing else {
                    state.advancing = true
                    return true
                }
                state.queuedAdvances.append(turn)
                return false
            }
            if isFree {
                turn.resume()
            }
        }
    }

    /// Ends the advance under way, handing the clock to the next one queued.
    private func finishAdvancing() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.queuedAdvances.isEmpty else {
                state.advancing = false
                return nil
            }
            return state.queuedAdvances.removeFirst()
        }
        next?.resume()
    }
}
