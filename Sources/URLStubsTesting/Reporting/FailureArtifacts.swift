import Foundation
import Testing
@_spi(Integration) import URLStubs

/// Attaches what a failing scope saw to its test: the traffic as HAR 1.2 and the
/// problem report, so a CI log shows exactly what was sent.
enum FailureArtifacts {
    /// Attaches the artifacts of `outcome` to the running Swift Testing test when
    /// the scope ended with a problem that fails it.
    static func attach<Value>(_ outcome: StubScope.Outcome<Value>) {
        guard outcome.problems.contains(where: { !$0.isWarning }) else { return }
        let name = "urlstubs-scope-\(outcome.scope.description.filter(\.isNumber))"
        let (har, report) = contents(scope: outcome.title, problems: outcome.problems, traffic: outcome.traffic)
        if let har {
            Attachment.record(Array(har), named: name + ".har")
        }
        Attachment.record(report, named: name + ".txt")
    }

    /// Writes the artifacts of a failing XCTest scope to a temporary directory and
    /// returns the line that names it; `nil` when the scope did not fail.
    static func write(scope: String, problems: [StubProblem], traffic: [RecordedExchange]) -> String? {
        guard problems.contains(where: { !$0.isWarning }) else { return nil }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("URLStubs-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
        let base = directory.appendingPathComponent(scope.filter { $0.isLetter || $0.isNumber }.prefix(60).description)
        let (har, report) = contents(scope: scope, problems: problems, traffic: traffic)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if let har {
                try har.write(to: base.appendingPathExtension("har"), options: .atomic)
            }
            try Data(report.utf8).write(to: base.appendingPathExtension("txt"), options: .atomic)
            return IntegrationMessages.artifactsWritten(base.path + ".{har,txt}")
        } catch {
            return nil
        }
    }

    /// The HAR file (`nil` when withheld) and the report, scrubbed of every value
    /// the redaction removed, from one redaction of `traffic`.
    private static func contents(scope: String, problems: [StubProblem], traffic: [RecordedExchange]) -> (har: Data?, report: String) {
        let archive = TrafficArchive(traffic)
        let note: String
        switch archive.har {
        case .success: note = IntegrationMessages.trafficAttached(traffic.count)
        case let .failure(error): note = IntegrationMessages.trafficWithheld(String(describing: error))
        }
        let report = IntegrationMessages.artifactReport(scope: scope, problems: problems, trafficNote: note)
        return (try? archive.har.get(), archive.scrub(report))
    }
}
