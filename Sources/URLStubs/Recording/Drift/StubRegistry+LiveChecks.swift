#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension StubRegistry {
    /// Makes `scope` send every request its stubs answer to the network as well;
    /// returns whether the scope is open.
    nonisolated func checkLive(in scope: StubScope) -> Bool {
        withIsolation { registry in
            guard let scopeState = registry.scopes[scope.id] else { return false }
            scopeState.attach(ScopeRecording.self, ScopeRecording.init).checksLive = true
            return true
        }
    }

    /// Sends the request of `exchange`, which the stub `handle` answered (`stub` is
    /// its summary, `location` its line), to the network, and keeps the check for
    /// the end of `scope`.
    nonisolated func startLiveCheck(of exchange: LoggedExchange, stub: String, handle: Stub, location: StubSourceLocation, in scope: StubScope) {
        let request = exchange.request
        let live = Task.detached { await LiveRequest.send(request, followingRedirects: true) }
        let check = LiveCheck(exchange: exchange, stub: stub, handle: handle, location: location, live: live)
        let isOpen = withIsolation { registry in
            guard let scopeState = registry.scopes[scope.id] else { return false }
            scopeState.attach(ScopeRecording.self, ScopeRecording.init).liveChecks.append(check)
            return true
        }
        if !isOpen {
            live.cancel()
        }
    }

    /// Whether `scope` has drift checks to wait for.
    nonisolated func hasLiveChecks(in scope: StubScope) -> Bool {
        withIsolation { !($0.scopes[scope.id]?.feature(ScopeRecording.self)?.liveChecks.isEmpty ?? true) }
    }

    /// Waits for the drift checks of `scope` and returns a problem for each stubbed
    /// answer that differs from the live one.
    nonisolated func finishLiveChecks(in scope: StubScope) async -> [StubProblem] {
        let (checks, seedNote) = withIsolation { registry -> ([LiveCheck], String?) in
            guard let scopeState = registry.scopes[scope.id] else { return ([], nil) }
            let recording = scopeState.feature(ScopeRecording.self)
            defer { recording?.liveChecks = [] }
            return (recording?.liveChecks ?? [], registry.note(of: scopeState))
        }
        var problems: [StubProblem] = []
        for check in checks {
            // A cancelled test does not wait out the live requests' timeouts.
            let live = await withTaskCancellationHandler { await check.live.value } onCancel: { check.live.cancel() }
            let stubbed = withIsolation { _ in check.exchange.outcome }
            let differences = LiveCheck.differences(stubbed: stubbed, live: live.outcome)
            guard !differences.isEmpty else { continue }
            let message = DriftMessages.drift(check.exchange.request, stub: check.stub, differences: differences)
            problems.append(StubProblem(kind: .drift(stub: check.handle, differences: differences), message: FaultMessages.noting(message, seedNote), location: check.location))
        }
        return problems
    }
}
