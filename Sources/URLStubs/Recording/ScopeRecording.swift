#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The recording feature of a scope (see ``ScopeFeature``): the cassette it
/// replays and records, and its drift checks against the real server. Attached
/// by a cassette, by `checkLive`, or for every scope when the environment turns
/// drift checks on; touched only while the registry's lock is held, except
/// ``ended(exchanges:location:)``.
final class ScopeRecording: ScopeFeature {
    /// The cassette the scope replays, if any.
    var cassette: URL?
    /// The cassette a recording scope writes when it ends; `nil` when it records nothing.
    var recording: CassetteRecording?
    /// Whether requests its stubs answer are also sent to the network, to check
    /// for drift.
    var checksLive = false
    /// The drift checks started so far.
    var liveChecks: [LiveCheck] = []

    /// Turns drift checks on for every scope when the environment asks, and gives
    /// every scope the problem of a setting that is neither on nor off.
    static func opened(_ scopeState: ScopeState) {
        if LiveCheck.isOnForRun {
            scopeState.attach(ScopeRecording.self, ScopeRecording.init).checksLive = true
        }
        if !LiveCheck.problemsForRun.isEmpty { // Appending nothing would still allocate.
            scopeState.problems += LiveCheck.problemsForRun
        }
    }

    static func part(for request: borrowing RecordedRequest, in chain: ScopeChain) -> (any RequestPart)? {
        chain.contains { $0.feature(ScopeRecording.self) != nil } ? RequestRecording(chain: chain) : nil
    }

    /// Cancels the drift checks started after the scope's were collected, and
    /// writes the cassette of a recording scope.
    func ended(exchanges: [RecordedExchange], location: StubSourceLocation?) -> [StubProblem] {
        for check in liveChecks {
            check.live.cancel()
        }
        guard let recording else { return [] }
        defer { recording.release() }
        guard let error = recording.write(exchanges) else { return [] }
        return [StubProblem(kind: .cassette(error), message: error.description, location: location)]
    }
}

/// The recording feature's part in resolving one request.
struct RequestRecording: RequestPart {
    let chain: ScopeChain

    /// The nearest scope with a cassette decides: a recording scope sends what
    /// neither its stubs nor its cassette answer (nor a cassette entry already
    /// replayed) to the network, and a replay-only scope nested in a recording one
    /// sends nothing.
    func passesThrough(usedUp: StubEntry?) -> Bool? {
        guard let nearest = chain.lazy.compactMap({ $0.feature(ScopeRecording.self) }).first(where: { $0.cassette != nil }) else {
            return nil
        }
        return nearest.recording != nil && (usedUp.map { $0.origin != .written } ?? true)
    }

    /// How to record the cassette the request's scope replays, when it has one.
    var unmatchedHint: String? {
        chain[0].feature(ScopeRecording.self)?.cassette.map(RecordingMessages.replayHint)
    }

    /// Starts the drift check of a stubbed answer, in a scope that checks them.
    func answered(_ exchange: LoggedExchange, by entry: StubEntry, home: ScopeState) -> AfterLock? {
        guard home.feature(ScopeRecording.self)?.checksLive == true, exchange.source != .network, exchange.source != .none else {
            return nil
        }
        let scope = home.scope
        let (stub, handle, location) = (entry.summary, entry.handle(in: scope), entry.location)
        return { registry in registry.startLiveCheck(of: exchange, stub: stub, handle: handle, location: location, in: scope) }
    }
}
