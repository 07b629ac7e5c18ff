import Foundation

/// What a recording scope writes when it ends: the cassette file, and the entries
/// it already held (kept by ``CassetteMode/recordMissing``).
struct CassetteRecording: Sendable {
    let file: URL
    let mode: CassetteMode
    let redaction: Redaction
    /// The entries read from the file, written again before the new ones.
    let kept: [CassetteEntry]

    /// The files open scopes are recording into, by standardized path.
    private static let claimed = Locked(Set<String>())

    /// Claims `file` for one recording scope until ``release()``.
    ///
    /// - Throws: ``CassetteError/alreadyRecording(path:)`` when another open scope
    ///   records into it: both would write the file, and one would lose.
    static func claim(_ file: URL) throws(CassetteError) {
        let path = file.standardizedFileURL.path
        guard claimed.withLock({ $0.insert(path).inserted }) else {
            throw .alreadyRecording(path: file.path)
        }
    }

    /// Lets another scope record into the file.
    func release() {
        let path = file.standardizedFileURL.path
        _ = Self.claimed.withLock { $0.remove(path) }
    }

    /// Writes the cassette for the exchanges `log` of the ended scope: the kept
    /// entries, then every request the network answered, in order, redacted and
    /// scanned for leaks first.
    ///
    /// - Returns: The error to report, or `nil` when the file was written (or there
    ///   was nothing new to add to it).
    func write(_ log: [RecordedExchange], environment: [String: String] = ProcessInfo.processInfo.environment) -> CassetteError? {
        let recorded = log.filter(\.isLiveTraffic).compactMap(CassetteEntry.init)
        if recorded.isEmpty, FileManager.default.fileExists(atPath: file.path) {
            // Nothing new (in record mode, a test that failed before its first
            // request): leave the file exactly as it is.
            return nil
        }
        do {
            var redactor = try Redactor(redaction)
            let entries = redactor.redact(kept + recorded)
            // Entries kept from the file were redacted when first recorded. A rule
            // by name is used again by the placeholder its field holds; a pattern
            // or a custom rule, which reads values, finds nothing more to remove
            // in them, so a file holding a placeholder may owe it to such a rule
            // (`.recordMissing` adding only requests it has nothing to remove from).
            let keptHoldPlaceholders = kept.contains(where: \.holdsPlaceholder)
            if let unused = redactor.unusedRules.first(where: { !(keptHoldPlaceholders && $0.readsValues) }) {
                return .unusedRule(path: file.path, rule: unused.description, entries: entries.count)
            }
            let secrets = LeakScan.secrets(removed: redactor.removals, environment: environment)
            if let leak = LeakScan.firstLeak(in: entries, of: secrets) {
                return .leakedSecret(path: file.path, leak: leak)
            }
            let data = try HARFile(entries).encoded()
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            // Atomic: a temporary file in the same directory, renamed over the old one.
            try data.write(to: file, options: .atomic)
            return nil
        } catch let error as CassetteError {
            return error
        } catch {
            return .unwritable(path: file.path, reason: error.localizedDescription)
        }
    }
}

extension RecordedExchange {
    /// Whether the network answered this request: a response, or an error the
    /// network gave (not one URLStubs made, such as the scope ending first).
    var isLiveTraffic: Bool {
        guard source == .network else { return false }
        switch outcome {
        case .response:
            return true
        case let .failure(error):
            return (error as? URLError)?.code != StubFailure.code
        case .waiting, .cancelled, .abandoned:
            return false
        }
    }
}
