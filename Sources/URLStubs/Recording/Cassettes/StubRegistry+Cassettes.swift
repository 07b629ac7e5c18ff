import Foundation

extension StubRegistry {
    /// Makes `scope` answer from the cassette `file` (whose entries are registered
    /// separately) and, with a `recording`, send what nothing else answers to the
    /// network and write the cassette when it ends; returns whether the scope is open.
    func attachCassette(_ file: URL, recording: CassetteRecording?, to scope: StubScope) -> Bool {
        state.withLock { state in
            guard let scopeState = state.scopes[scope.id] else { return false }
            let feature = scopeState.attach(ScopeRecording.self, ScopeRecording.init)
            feature.cassette = file
            feature.recording = recording
            return true
        }
    }
}
