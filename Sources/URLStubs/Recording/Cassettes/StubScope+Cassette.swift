import Foundation

extension StubScope {
    /// Answers requests from the HAR file at `har`, as exported by a browser,
    /// Charles, Proxyman or a recording scope: each entry answers one request with
    /// the same method, URL (exactly its query items, in any order) and body, and
    /// repeated identical requests get their entries in order.
    ///
    /// Redacted values in the file match any value. Entries that are failures
    /// (status 0) fail their request. Stubs registered later win over the entries.
    /// `matching` changes how requests and entries are compared; see
    /// ``CassetteMatching``.
    ///
    /// - Throws: ``CassetteError`` when the file is missing or is not HAR, or a
    ///   matching rule cannot be used.
    nonisolated(nonsending) public func replay(
        har: URL,
        matching: CassetteMatching = .standard,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async throws {
        let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let rules = try CassetteRules(matching)
        let entries = try CassetteReplay.read(har)
        CassetteReplay.register(entries, from: har, in: self, location: location, rules: rules)
    }

    /// Makes the scope replay and record the cassette `file` as `mode` (or the
    /// environment's override) says; used by ``StubScopeOptions/cassette``.
    @_spi(Integration)
    nonisolated(nonsending) public func useCassette(_ file: URL, mode: CassetteMode, redaction: Redaction, matching: CassetteMatching = .standard, location: StubSourceLocation) async throws {
        let mode = try mode.effective(in: ProcessInfo.processInfo.environment)
        _ = try Redactor(redaction) // A rule that cannot be used fails before any traffic.
        let rules = try CassetteRules(matching)
        var kept: [CassetteEntry] = []
        switch mode {
        case .replay:
            kept = try CassetteReplay.read(file)
        case .recordMissing:
            if FileManager.default.fileExists(atPath: file.path) {
                kept = try CassetteReplay.read(file)
            }
        case .record:
            break
        }
        let recording = mode == .replay ? nil : CassetteRecording(file: file, mode: mode, redaction: redaction, kept: kept)
        if recording != nil {
            try CassetteRecording.claim(file)
        }
        CassetteReplay.register(kept, from: file, in: self, location: location, rules: rules)
        if !StubRegistry.shared.attachCassette(file, recording: recording, to: self) {
            recording?.release()
        }
    }
}

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
