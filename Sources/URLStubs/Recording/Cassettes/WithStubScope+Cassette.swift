import Foundation

/// Runs `body` inside a new stub scope that answers from the cassette at `cassette`
/// (a HAR 1.2 file), recording real traffic into it as `mode` says.
///
/// - ``CassetteMode/replay``: the file must exist; every request is answered from
///   it, and a request it has no entry for fails with near misses against its
///   entries. Nothing reaches the network.
/// - ``CassetteMode/record``: requests the scope's own stubs do not answer go to
///   the network, and the file is replaced with what came back when the scope ends.
/// - ``CassetteMode/recordMissing``: what the file has is replayed, the rest goes to
///   the network, and the new entries are added to the file.
///
/// The environment variable `URLSTUBS_RECORD` (`all`, `missing` or `none`)
/// overrides `mode` for a whole run. Repeated identical requests replay their
/// entries in order, each once. Stubs registered in `body` win over the cassette.
///
/// `matching` says how requests are matched with the cassette's entries (and what
/// the answers take from them); see ``CassetteMatching``. A request it matches is
/// answered from the cassette in every mode, so recording with
/// ``CassetteMode/recordMissing`` adds nothing when nothing new was sent.
///
/// The file is written when the scope ends, also when `body` throws, atomically,
/// with keys and entries in a stable order and no timestamps, after `redaction`
/// removed secrets and a scan found none left; otherwise nothing is written and
/// the refusal is one of the problems thrown as ``StubVerificationError``.
///
/// - Throws: ``CassetteError`` when the cassette cannot be read (before `body`
///   runs); otherwise what ``withStubScope(_:fileID:filePath:line:column:isolation:_:)``
///   throws.
@discardableResult
public func withStubScope<Result>(
    _ name: String? = nil,
    cassette: URL,
    mode: CassetteMode = .replay,
    redaction: Redaction = .standard,
    matching: CassetteMatching = .standard,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (StubScope) async throws -> Result
) async throws -> Result {
    let location = StubSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    return try await withVerifiedScope(name: name, location: location, clock: nil, isolation: isolation) { scope in
        try await scope.useCassette(cassette, mode: mode, redaction: redaction, matching: matching, location: location)
        return try await body(scope)
    }
}

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
    /// environment's override) says; used by `withStubScope(cassette:)` and the
    /// `.stubbed(cassette:)` trait.
    @_spi(Integration)
    public func useCassette(_ file: URL, mode: CassetteMode, redaction: Redaction, matching: CassetteMatching = .standard, location: StubSourceLocation) async throws {
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
