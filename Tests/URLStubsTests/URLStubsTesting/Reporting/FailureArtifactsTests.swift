#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) import URLStubs
@testable import URLStubsTesting

/// What a failing scope leaves for CI: its exchanges as HAR and its report.
@Suite("Failure artifacts", .timeLimit(.minutes(1)))
struct FailureArtifactsTests {
    /// A scope that fails: one answered request with a credential, one unmatched.
    static func failingScope() async -> StubScope.Outcome<Void> {
        await StubScope.withNewScope(name: "artifacts", location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)) { scope in
            await scope.stub(.get("https://artifacts.example.com/me"), with: .json(#"{"name": "Ann"}"#))
            var request = URLRequest(url: URL(string: "https://artifacts.example.com/me")!)
            request.setValue("Bearer abcdefgh12345678", forHTTPHeaderField: "Authorization")
            _ = try await URLSession.stubbed.data(for: request)
            _ = try? await URLSession.stubbed.data(from: URL(string: "https://artifacts.example.com/missing")!)
        }
    }

    @Test("the exchanges of a failing scope are HAR 1.2 with both requests, their answers, and credentials redacted")
    func trafficArchive() async throws {
        let outcome = await Self.failingScope()
        let har = try ExchangeArchive(outcome.exchanges, environment: [:]).har.get()
        let json = try #require(try JSONSerialization.jsonObject(with: har) as? [String: Any])
        let log = try #require(json["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == 2)
        let first = try #require(entries.first)
        let request = try #require(first["request"] as? [String: Any])
        let headers = try #require(request["headers"] as? [[String: String]])
        #expect(headers == [["name": "Authorization", "value": "URLSTUBS-REDACTED"]])
        let response = try #require(first["response"] as? [String: Any])
        #expect(response["status"] as? Int == 200)
        let missing = try #require(entries.last?["response"] as? [String: Any])
        #expect(missing["status"] as? Int == 0)
        #expect((missing["_error"] as? String)?.hasPrefix("URLStubs: no stub matches GET https://artifacts.example.com/missing in scope #") == true)
        #expect(!String(decoding: har, as: UTF8.self).contains("abcdefgh12345678"))
    }

    @Test("a failing XCTest scope's artifacts are written to the directory whose path is printed; a passing scope writes none")
    func writtenForXCTest() async throws {
        let outcome = await Self.failingScope()
        let directory = try TemporaryDirectory()
        let archive = ExchangeArchive(outcome.exchanges, environment: [:])
        let line = try #require(FailureArtifacts.write(scope: "testFails", problems: outcome.problems, exchanges: outcome.exchanges, archive: archive, in: directory.url))
        #expect(line.hasPrefix("URLStubs: the failing scope's exchanges and report were written to "))
        let base = String(line.dropFirst("URLStubs: the failing scope's exchanges and report were written to ".count).dropLast(".{har,txt}".count))
        defer {
            try? FileManager.default.removeItem(atPath: base + ".har")
            try? FileManager.default.removeItem(atPath: base + ".txt")
        }
        let report = try String(contentsOfFile: base + ".txt", encoding: .utf8)
        #expect(report.contains("1. URLStubs: no stub matches GET https://artifacts.example.com/missing"))
        #expect(report.hasSuffix("Its exchanges (2 requests with their answers, redacted) are in the HAR 1.2 file that accompanies this report."))
        #expect(FileManager.default.fileExists(atPath: base + ".har"))
        #expect(FailureArtifacts.write(scope: "testPasses", problems: [], exchanges: outcome.exchanges, archive: archive, in: directory.url) == nil)
    }

    @Test("two failing XCTest scopes whose names share their first 60 letters write files of their own, neither replacing the other")
    func namesAlikeDoNotCollide() async throws {
        let outcome = await Self.failingScope()
        let directory = try TemporaryDirectory()
        let archive = ExchangeArchive(outcome.exchanges, environment: [:])
        let prefix = "OrderHistorySynchronisationTestsWithAVeryLongNameThatGoesOnAndOn"
        let lines = try ["A", "B"].map { suffix in
            try #require(FailureArtifacts.write(scope: prefix + "." + "test" + suffix, problems: outcome.problems, exchanges: outcome.exchanges, archive: archive, in: directory.url))
        }
        let bases = lines.map { String($0.dropFirst("URLStubs: the failing scope's exchanges and report were written to ".count).dropLast(".{har,txt}".count)) }
        #expect(Set(bases).count == 2)
        #expect(bases.last?.hasSuffix("-2") == true)
        for base in bases {
            #expect(FileManager.default.fileExists(atPath: base + ".txt"))
            #expect(FileManager.default.fileExists(atPath: base + ".har"))
        }
    }
}
