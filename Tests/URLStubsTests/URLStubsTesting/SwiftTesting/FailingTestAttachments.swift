#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubsTesting

/// A test that fails on purpose, so that `.ci/run` can check what the `.stubbed`
/// trait attaches to a failing test: run alone, with `URLSTUBS_ATTACHMENT_RUN=1`
/// and `swift test --attachments-path DIR`, it must fail and leave its exchanges
/// (HAR, redacted) and its report in `DIR`. Skipped in every other run.
@Suite("The .stubbed trait's attachments (a failing test, run alone by .ci/run)")
struct FailingTestAttachments {
    static let isRun = ProcessInfo.processInfo.environment["URLSTUBS_ATTACHMENT_RUN"] == "1"

    /// The bearer token the unmatched request carries: never in an attachment.
    static let token = "attach-T0ken-9137"

    @Test("a test whose scope ends with an unmatched request fails, with its exchanges and report attached", .enabled(if: isRun, "run by .ci/run with URLSTUBS_ATTACHMENT_RUN=1 and --attachments-path"), .stubbed)
    func unmatchedRequest() async {
        var request = URLRequest(url: URL(string: "https://api.example.com/private/orders?page=2")!)
        request.setValue("Bearer \(Self.token)", forHTTPHeaderField: "Authorization")
        _ = try? await URLSession.stubbed.data(for: request)
    }
}
