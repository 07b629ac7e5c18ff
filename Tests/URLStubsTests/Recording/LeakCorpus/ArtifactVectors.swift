#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs
@testable import URLStubsTesting
import XCTest

/// Failure artifacts (the report and the HAR file) and console messages of a
/// failing scope whose exchanges, real or unmatched, carried secrets.
@Suite("Leak corpus: failure artifacts", .timeLimit(.minutes(1)))
struct ArtifactCorpusTests {
    static let token = "art-T0ken-777"

    /// The outcome of a scope that sends `requests` (a passthrough for the
    /// loopback server) and fails because one is unmatched or `stubs` went unused.
    static func failingScope(
        server: LocalServer? = nil,
        stubs: @escaping @Sendable (StubScope) async -> Void = { _ in },
        _ requests: [URLRequest]
    ) async -> StubScope.Outcome<Void> {
        await StubScope.withNewScope(name: "artifacts", location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)) { scope in
            if server != nil {
                await scope.passThrough(.host("127.0.0.1"))
            }
            await stubs(scope)
            for request in requests {
                _ = try? await URLSession.stubbed.data(for: request)
            }
        }
    }

    /// The report and HAR text of `outcome`, as written for XCTest.
    static func artifacts(_ outcome: StubScope.Outcome<Void>, environment: [String: String] = [:]) throws -> (report: String, har: String?, line: String) {
        let directory = try TemporaryDirectory()
        let archive = ExchangeArchive(outcome.exchanges, environment: environment)
        let line = try #require(FailureArtifacts.write(scope: "testLeaks", problems: outcome.problems, exchanges: outcome.exchanges, archive: archive, in: directory.url))
        let report = try String(contentsOf: directory.file("testLeaks.txt"), encoding: .utf8)
        let har = try? String(contentsOf: directory.file("testLeaks.har"), encoding: .utf8)
        return (report, har, line)
    }

    @Test("the token in an unmatched URL's query is not in the report, the HAR file, or the printed line")
    func unmatchedQuery() async throws {
        let outcome = await Self.failingScope([.to(URL(string: "https://api.example.com/cb?access_token=\(Self.token)")!)])
        #expect(outcome.problems.first?.message.contains(Self.token) == true, "the unscrubbed problem holds the token")
        let (report, har, line) = try Self.artifacts(outcome)
        #expect(report.contains("no stub matches GET https://api.example.com/cb?access_token=URLSTUBS-REDACTED"))
        #expect(!report.contains(Self.token) && !(har ?? "").contains(Self.token) && !line.contains(Self.token))
        #expect(har != nil)
    }

    @Test("a token sent in a header and also in an unmatched URL's path: the HAR file is withheld and the report masks it, the withholding note too")
    func tokenInPath() async throws {
        let outcome = await Self.failingScope([.to(URL(string: "https://api.example.com/users/\(Self.token)")!, headers: ["Authorization": "Bearer \(Self.token)"])])
        let (report, har, _) = try Self.artifacts(outcome)
        #expect(har == nil)
        #expect(report.contains("no stub matches GET https://api.example.com/users/URLSTUBS-REDACTED"))
        #expect(report.contains("Its exchanges are not attached: URLStubs: did not write the cassette (failure report): a secret survived redaction in entry 1 (GET https://api.example.com/users/•••), URL: part of the value removed from the request header Authorization of entry 1."))
        #expect(!report.contains(Self.token))
    }

    @Test("the value of API_TOKEN in an unmatched URL is masked in the report")
    func environmentValue() async throws {
        let outcome = await Self.failingScope([.to(URL(string: "https://api.example.com/keys/env-4P1-T0KEN")!)])
        let (report, har, _) = try Self.artifacts(outcome, environment: ["API_TOKEN": "env-4P1-T0KEN"])
        #expect(report.contains("no stub matches GET https://api.example.com/keys/URLSTUBS-REDACTED"))
        #expect(!report.contains("env-4P1-T0KEN"))
        #expect(har == nil, "the HAR file would hold it in the URL")
    }

    @Test("a password sent \\/-escaped in JSON is masked in the report's near miss")
    func escapedSlash() async throws {
        let body = Data(#"{"password":"pa\/ss-w0rd-1"}"#.utf8)
        let outcome = await Self.failingScope(stubs: { scope in
            await scope.stub(.post("https://api.example.com/login").body("other"), with: .text("ok"))
        }, [.to(URL(string: "https://api.example.com/login")!, method: "POST", body: body)])
        let (report, _, _) = try Self.artifacts(outcome)
        #expect(report.contains(#"{"password":"URLSTUBS-REDACTED"}"#), "\(report)")
        #expect(!report.contains(#"pa\/ss"#) && !report.contains("ss-w0rd-1"))
    }

    @Test("a password cut short at 120 characters in a near miss is masked up to the cut")
    func cutShort() async throws {
        let padding = String(repeating: "x", count: 89) // the cut falls 8 characters into the password
        let body = Data(#"{"note":"\#(padding)","password":"Cut-Passw0rd-Long"}"#.utf8)
        let outcome = await Self.failingScope(stubs: { scope in
            await scope.stub(.post("https://api.example.com/login").body("other"), with: .text("ok"))
        }, [.to(URL(string: "https://api.example.com/login")!, method: "POST", body: body)])
        let (report, _, _) = try Self.artifacts(outcome)
        #expect(report.contains(#""password":"URLSTUBS-REDACTED…""#), "\(report)")
        #expect(!report.contains("Cut-Pa"))
    }

    @Test("a decoded Basic password echoed by a real server: the HAR file is withheld, and the report and printed line hold no form of it")
    func basicPassword() async throws {
        let server = try LocalServer { _ in .text("welcome, your password is Bas1c-Pass") }
        defer { server.stop() }
        let basic = "Basic " + Data("ann:Bas1c-Pass".utf8).base64EncodedString()
        let outcome = await Self.failingScope(server: server, [
            .to(server.url("/me"), headers: ["Authorization": basic]),
            .to(URL(string: "https://api.example.com/unmatched")!, headers: ["Authorization": basic]),
        ])
        let (report, har, line) = try Self.artifacts(outcome)
        #expect(har == nil)
        #expect(report.contains("response body: the decoded Basic credentials removed from the request header Authorization of entry 1"), "\(report)")
        for text in [report, line] {
            #expect(!text.contains("Bas1c-Pass") && !text.contains(Data("ann:Bas1c-Pass".utf8).base64EncodedString()))
        }
    }

    @Test("a server-sent event's token from a real server is redacted in the HAR file of a failing scope")
    func eventStreamToken() async throws {
        let server = try LocalServer { _ in ServedResponse(headers: ["Content-Type": "text/event-stream"], body: Data("data: {\"token\":\"sse-Art-T0ken\"}\n\n".utf8)) }
        defer { server.stop() }
        let outcome = await Self.failingScope(server: server, [.to(server.url("/events")), .to(URL(string: "https://api.example.com/unmatched")!)])
        let (report, har, _) = try Self.artifacts(outcome)
        let file = try #require(har)
        #expect(file.contains(#"data: {\"token\":\"URLSTUBS-REDACTED\"}"#), "\(file)")
        #expect(!file.contains("sse-Art-T0ken") && !report.contains("sse-Art-T0ken"))
    }

    @Test("a report line that holds a secret in a form that cannot be cut out (base64) is withheld")
    func withheldLine() async throws {
        let encoded = Spelling.base64(Self.token, alignment: 1)
        let outcome = await Self.failingScope([
            .to(URL(string: "https://api.example.com/cb?state=\(encoded)")!, headers: ["Authorization": "Bearer \(Self.token)"]),
        ])
        let (report, har, _) = try Self.artifacts(outcome)
        #expect(har == nil)
        #expect(report.contains("(URLStubs withheld this line: it holds a secret from the exchanges in a form that cannot be cut out)"))
        #expect(!report.contains(encoded))
    }

    @Test("issues reported for a failing scope are scrubbed before they reach the test framework")
    func scrubbedProblems() async throws {
        let outcome = await Self.failingScope([.to(URL(string: "https://api.example.com/cb?access_token=\(Self.token)")!)])
        let scrubbed = ExchangeArchive(outcome.exchanges, environment: [:]).scrub(outcome.problems)
        #expect(scrubbed.count == outcome.problems.count)
        #expect(scrubbed.first?.message.hasPrefix("URLStubs: no stub matches GET https://api.example.com/cb?access_token=URLSTUBS-REDACTED in scope #") == true)
    }

    @Test("the StubVerificationError withStubScope throws (which test frameworks print) is scrubbed of the exchanges' secrets")
    func scrubbedVerificationError() async throws {
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { _ in
                _ = try? await URLSession.stubbed.data(for: .to(URL(string: "https://api.example.com/cb?access_token=\(Self.token)")!))
            }
        }
        let message = try #require(error?.problems.first?.message)
        #expect(message.hasPrefix("URLStubs: no stub matches GET https://api.example.com/cb?access_token=URLSTUBS-REDACTED in scope #"))
        #expect(!String(describing: error!).contains(Self.token))
    }

    @Test("artifact files are readable by their owner only (0600), in a run directory only its owner may enter (0700)")
    func permissions() async throws {
        let outcome = await Self.failingScope([.to(URL(string: "https://api.example.com/unmatched")!)])
        let directory = try TemporaryDirectory()
        let archive = ExchangeArchive(outcome.exchanges, environment: [:])
        _ = FailureArtifacts.write(scope: "testMode", problems: outcome.problems, exchanges: outcome.exchanges, archive: archive, in: directory.url)
        for name in ["testMode.txt", "testMode.har"] {
            let mode = try FileManager.default.attributesOfItem(atPath: directory.file(name).path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name)")
        }
        let run = try #require(FailureArtifacts.runDirectory)
        defer { FailureArtifacts.removeRunDirectory() }
        #expect(run.lastPathComponent.hasPrefix("URLStubs-\(ProcessInfo.processInfo.processIdentifier)-"))
        let mode = try FileManager.default.attributesOfItem(atPath: run.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }
}

/// A failing XCTest case whose unmatched request carries a token: the failure
/// XCTest records (and prints) does not hold it.
final class ScrubbedConsoleTests: FailureCapturingTestCase {
    override func invokeTest() {
        super.invokeTest()
        let failures = captured.map(\.description)
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.hasPrefix("URLStubs: no stub matches GET https://api.example.com/cb?access_token=URLSTUBS-REDACTED in scope #") == true)
        XCTAssertFalse(failures.contains { $0.contains("c0ns0le-T0ken") })
    }

    func testUnmatchedRequestWithToken() async throws {
        _ = try? await URLSession.stubbed.data(from: URL(string: "https://api.example.com/cb?access_token=c0ns0le-T0ken")!)
    }
}
