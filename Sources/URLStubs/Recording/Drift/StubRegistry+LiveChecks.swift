#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension StubRegistry {
    /// Makes `scope` send every request its stubs answer to the network as well;
    /// returns whether the scope is open.
    func checkLive(in scope: StubScope) -> Bool {
        state.withLock { state in
            guard let scopeState = state.scopes[scope.id] else { return false }
            scopeState.attach(ScopeRecording.self, ScopeRecording.init).checksLive = true
            return true
        }
    }

    /// Sends the request of `exchange`, which `entry` answered, to the network, and
    /// keeps the check for the end of `scope`.
    func startLiveCheck(of exchange: LoggedExchange, answeredBy entry: StubEntry, in scope: StubScope) {
        let request = exchange.request
        let live = Task.detached { await LiveRequest.send(request, followingRedirects: true) }
        let check = LiveCheck(exchange: exchange, stub: entry.summary, handle: entry.handle(in: scope), location: entry.location, live: live)
        let isOpen = state.withLock { state in
            guard let scopeState = state.scopes[scope.id] else { return false }
            scopeState.attach(ScopeRecording.self, ScopeRecording.init).liveChecks.append(check)
            return true
        }
        if !isOpen {
            live.cancel()
        }
    }

    /// Whether `scope` has drift checks to wait for.
    func hasLiveChecks(in scope: StubScope) -> Bool {
        state.withLock { !($0.scopes[scope.id]?.feature(ScopeRecording.self)?.liveChecks.isEmpty ?? true) }
    }

    /// Waits for the drift checks of `scope` and returns a problem for each stubbed
    /// answer that differs from the live one.
    func finishLiveChecks(in scope: StubScope) async -> [StubProblem] {
        let (checks, seedNote) = state.withLock { state -> ([LiveCheck], String?) in
            guard let scopeState = state.scopes[scope.id] else { return ([], nil) }
            let recording = scopeState.feature(ScopeRecording.self)
            defer { recording?.liveChecks = [] }
            return (recording?.liveChecks ?? [], Self.note(of: scopeState, in: state))
        }
        var problems: [StubProblem] = []
        for check in checks {
            // A cancelled test does not wait out the live requests' timeouts.
            let live = await withTaskCancellationHandler { await check.live.value } onCancel: { check.live.cancel() }
            let stubbed = state.withLock { _ in check.exchange.outcome }
            let differences = LiveCheck.differences(stubbed: stubbed, live: live.outcome)
            guard !differences.isEmpty else { continue }
            let message = DriftMessages.drift(check.exchange.request, stub: check.stub, differences: differences)
            problems.append(StubProblem(kind: .drift(stub: check.handle, differences: differences), message: FaultMessages.noting(message, seedNote), location: check.location))
        }
        return problems
    }
}
