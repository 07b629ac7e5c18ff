#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

/// What a drift check compares with the real server (RecordingTraffic.md).
@Suite("Drift: status and content type", .timeLimit(.minutes(1)))
struct DriftDifferencesTests {
    @Test("a drift check reports a status and a content type that differ from the server's, at the stub's line; the test gets the stub's answer")
    func driftInStatusAndContentType() async throws {
        let server = try LocalServer { _ in ServedResponse(status: 404, headers: ["Content-Type": "text/plain"], body: Data("gone".utf8)) }
        defer { server.stop() }
        let line = Locked(0)
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.startCheckingForDrift()
                let stub = await scope.stub(.get(server.url("/users/1")), with: .json(#"{"id": 1}"#))
                line.withLock { $0 = stub.location.line }
                let (data, response) = try await URLSession.stubbed.data(from: server.url("/users/1"))
                #expect(HTTPURLResponse.status(of: response) == 200)
                #expect(String(decoding: data, as: UTF8.self) == #"{"id": 1}"#)
            }
        }
        let problem = try #require(error?.problems.first)
        #expect(error?.problems.count == 1)
        #expect(problem.location?.line == line.withLock { $0 })
        guard case let .drift(_, differences) = problem.kind else {
            Issue.record("expected a drift, got \(problem.kind)")
            return
        }
        #expect(differences.contains { $0.hasPrefix("status:") && $0.contains("200") && $0.contains("404") }, "\(differences)")
        #expect(differences.contains { $0.hasPrefix("content type:") && $0.contains("application/json") && $0.contains("text/plain") }, "\(differences)")
    }
}
