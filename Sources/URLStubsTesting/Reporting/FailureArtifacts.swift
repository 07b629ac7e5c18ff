import Foundation
import Testing
@_spi(Integration) import URLStubs

/// Attaches what a failing scope saw to its test: the exchanges as HAR 1.2 and the
/// problem report, so a CI log shows exactly what was sent.
///
/// Both are redacted and scanned like a cassette: the HAR file is withheld when a
/// secret survived redaction, and the report is scrubbed of every secret the
/// exchanges held (see ``ExchangeArchive/scrub(_:)``).
enum FailureArtifacts {
    /// Attaches the artifacts of `outcome` to the running Swift Testing test when
    /// the scope ended with a problem that fails it.
    static func attach<Value>(_ outcome: StubScope.Outcome<Value>, archive: ExchangeArchive) {
        guard outcome.problems.contains(where: { !$0.isWarning }) else { return }
        let name = "urlstubs-scope-\(outcome.scope.description.filter(\.isNumber))"
        let (har, report) = contents(scope: outcome.title, problems: outcome.problems, exchanges: outcome.exchanges, archive: archive)
        if let har {
            Attachment.record(Array(har), named: name + ".har")
        }
        Attachment.record(report, named: name + ".txt")
    }

    /// Writes the artifacts of a failing XCTest scope, readable by their owner
    /// only (`0600`), into `directory` (by default ``runDirectory``) and returns
    /// the line that names them; `nil` when the scope did not fail or nothing
    /// could be written.
    static func write(scope: String, problems: [StubProblem], exchanges: [RecordedExchange], archive: ExchangeArchive, in directory: URL? = nil) -> String? {
        guard problems.contains(where: { !$0.isWarning }), let directory = directory ?? runDirectory else { return nil }
        // Made again (0700) if the run's directory was removed since.
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let base = freeBase(for: scope, in: directory)
        let (har, report) = contents(scope: scope, problems: problems, exchanges: exchanges, archive: archive)
        guard (har.map { writePrivately($0, to: base.appendingPathExtension("har")) } ?? true),
              writePrivately(Data(report.utf8), to: base.appendingPathExtension("txt")) else { return nil }
        return archive.scrub(IntegrationMessages.artifactsWritten(base.path + ".{har,txt}"))
    }

    /// The directory of this run's artifacts: a new directory in the temporary
    /// directory, `URLStubs-<pid>-<random>`, that only its owner may enter
    /// (`0700`); made once, when first needed (a `static let` is made lazily and
    /// once), `nil` when it cannot be.
    static let runDirectory: URL? = {
        for _ in 0..<8 {
            let name = "URLStubs-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
            // Not intermediate: a directory someone else made first is not used.
            if (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])) != nil {
                return directory
            }
        }
        return nil
    }()

    /// Where the artifacts of `scope` go in `directory`: the first 60 letters and
    /// digits of its name, then `-2`, `-3`, … when an earlier scope of the run
    /// (two tests whose long names begin alike) already wrote there. XCTest runs
    /// a process's test methods one at a time.
    private static func freeBase(for scope: String, in directory: URL) -> URL {
        let stem = scope.filter { $0.isLetter || $0.isNumber }.prefix(60).description
        var base = directory.appendingPathComponent(stem)
        var number = 2
        while FileManager.default.fileExists(atPath: base.appendingPathExtension("txt").path) {
            base = directory.appendingPathComponent("\(stem)-\(number)")
            number += 1
        }
        return base
    }

    /// Writes `data` to a new file at `file` (replacing one there) with mode `0600`.
    private static func writePrivately(_ data: Data, to file: URL) -> Bool {
        try? FileManager.default.removeItem(at: file)
        guard FileManager.default.createFile(atPath: file.path, contents: data, attributes: [.posixPermissions: 0o600]) else { return false }
        return (try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)) != nil
    }

    /// The HAR file (`nil` when withheld) and the report, scrubbed of every secret
    /// of the exchanges, from one redaction of `exchanges`.
    private static func contents(scope: String, problems: [StubProblem], exchanges: [RecordedExchange], archive: ExchangeArchive) -> (har: Data?, report: String) {
        let har = archive.har // Encoded when read: read once.
        let note: String
        switch har {
        case .success: note = IntegrationMessages.exchangesAttached(exchanges.count)
        case let .failure(error): note = IntegrationMessages.exchangesWithheld(String(describing: error))
        }
        let report = IntegrationMessages.artifactReport(scope: scope, problems: problems, exchangesNote: note)
        return (try? har.get(), archive.scrub(report))
    }
}

extension FailureArtifacts {
    /// Removes the run's directory and everything in it (for test suites that
    /// fail on purpose and must leave nothing behind).
    static func removeRunDirectory() {
        if let runDirectory {
            try? FileManager.default.removeItem(at: runDirectory)
        }
    }
}
