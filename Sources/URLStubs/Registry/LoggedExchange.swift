/// One entry of a scope's exchange log, as the registry keeps it: the request, and
/// the outcome it is given once known.
///
/// A request made in a nested scope is one entry shared by the logs of every scope
/// it was made in, so its outcome is written once and read everywhere.
final class LoggedExchange: @unchecked Sendable {
    // @unchecked: `outcome`, `source`, `endedAt` and `answeredBy` change only in the
    // registry's isolation, and are read only there (see ``StubRegistry``).
    let request: RecordedRequest
    /// How the request ended; ``RecordedExchange/Outcome/waiting`` until then.
    var outcome: RecordedExchange.Outcome = .waiting
    /// What answered it: the stub that did (``answeredBy``), else what was set
    /// here (the network for a recording scope, or nothing).
    var source: RecordedExchange.Source {
        get { answeredBy?.answerSource ?? unstubbedSource }
        set { unstubbedSource = newValue }
    }
    /// What answered the request when no stub did.
    private var unstubbedSource: RecordedExchange.Source = .none
    /// The clock of the scope the request was made in, which times its answer.
    let clock: ScopeClock
    /// When the request arrived, on ``clock``, since its scope opened.
    let startedAt: Duration
    /// When it ended, on ``clock``; `nil` while it waits.
    var endedAt: Duration?
    /// The stub that answers it, if one does.
    var answeredBy: StubEntry?

    init(_ request: consuming RecordedRequest, clock: ScopeClock) {
        self.request = request
        self.clock = clock
        startedAt = clock.elapsed()
    }

    /// Sets the outcome unless one was set first: whichever of the answer, a cancel
    /// or the scope's end comes first is what happened.
    func settle(_ outcome: RecordedExchange.Outcome) {
        if self.outcome.isWaiting {
            self.outcome = outcome
            endedAt = clock.elapsed()
        }
    }

    /// Sets the outcome, over one set before: for whoever takes the request out of
    /// flight (a cancel, its scope's end), which decides how it ended even when its
    /// producer had written an answer it will now drop.
    func decide(_ outcome: RecordedExchange.Outcome) {
        self.outcome = outcome
        endedAt = clock.elapsed()
    }

    /// Sets the outcome of a request answered in the critical section it arrived
    /// in: it ended the instant it started (one clock reading, not two).
    func settleOnArrival(_ outcome: RecordedExchange.Outcome) {
        self.outcome = outcome
        endedAt = startedAt
    }

    /// The entry as users read it.
    var snapshot: RecordedExchange {
        RecordedExchange(request: request, outcome: outcome, source: source, startedAt: startedAt, endedAt: endedAt)
    }
}
