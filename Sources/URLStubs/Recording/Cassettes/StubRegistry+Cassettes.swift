import Foundation

extension StubRegistry {
    /// Makes `scope` answer from the cassette `file` (whose entries are registered
    /// separately) and, with a `recording`, send what nothing else answers to the
    /// network and write the cassette when it ends; returns whether the scope is open.
    nonisolated func attachCassette(_ file: URL, recording: CassetteRecording?, to scope: StubScope) -> Bool {
        withIsolation { registry in
            guard let scopeState = registry.scopes[scope.id] else { return false }
            let feature = scopeState.attach(ScopeRecording.self, ScopeRecording.init)
            feature.cassette = file
            feature.recording = recording
            return true
        }
    }
}
