#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
@testable import URLStubsTesting
import XCTest

/// A plain XCTest case using `StubbedTestCase`: every method gets a fresh scope.
final class StubbedTestCaseTests: StubbedTestCase {
    override func setUp() async throws {
        try await super.setUp()
        await stubScope.stub(.get("https://api.example.com/from-setup"), with: .text("set up"))
    }

    func testAsyncMethodRunsInItsOwnScope() async throws {
        XCTAssertEqual(StubScope.current, stubScope)
        XCTAssertEqual(StubScope.currentTest(), stubScope)
        await stubScope.stub(.get("https://api.example.com/users/8"), with: .json(UserClient.User(id: 8, name: "Xavier")))
        let user = try await UserClient().user(id: 8)
        XCTAssertEqual(user, UserClient.User(id: 8, name: "Xavier"))
        let requests = await stubScope.requests
        XCTAssertEqual(requests.map(\.url.path), ["/users/8"])
    }

    func testStubsRegisteredInSetUpAreSeenByTheTest() async throws {
        let text = try await getText("https://api.example.com/from-setup")
        XCTAssertEqual(text, "set up")
    }

    func testSynchronousMethodWithACompletionHandler() {
        let done = expectation(description: "response")
        let body = Shared("")
        URLSession.stubbed.dataTask(with: URL(string: "https://api.example.com/from-setup")!) { data, _, _ in
            body.value = String(decoding: data ?? Data(), as: UTF8.self)
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: .patience)
        XCTAssertEqual(body.value, "set up")
    }

    func testWithStubScopeInAnAsyncXCTestMethod() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/from-setup"), with: .text("inner"))
            let inner = try await getText("https://api.example.com/from-setup")
            XCTAssertEqual(inner, "inner")
        }
        let outer = try await getText("https://api.example.com/from-setup")
        XCTAssertEqual(outer, "set up")
    }
}

/// Proves that a scope's problems are recorded as failures of the XCTest method that
/// owned the scope, at the right place, by capturing them instead of failing.
final class StubbedTestCaseFailureTests: FailureCapturingTestCase {
    private let registrationLine = Shared(0)

    /// A real server for the drift test, alive until the scope's drift checks end.
    private let server = Shared<LocalServer?>(nil)

    override func invokeTest() {
        super.invokeTest()
        server.value?.stop()
        let failures = captured
        switch name {
        case _ where name.contains("testUnmatchedRequestFailsThisTest"):
            XCTAssertEqual(failures.count, 1)
            XCTAssertTrue(failures.first?.description.hasPrefix("URLStubs: no stub matches GET https://api.example.com/unstubbed in scope #") == true)
        case _ where name.contains("testUnmatchedRequestIsRecordedAtTheNearestStub"):
            XCTAssertEqual(failures.map(\.file), [#filePath])
            XCTAssertEqual(failures.map(\.line), [registrationLine.value])
            XCTAssertTrue(failures.first?.description.contains("no stub matches POST https://api.example.com/users") == true)
        case _ where name.contains("testUnmetExpectationFailsAtTheRegistration"):
            XCTAssertEqual(failures, [Failure(
                description: "The stub GET https://api.example.com/twice expected exactly 2 requests but was requested 0 times.",
                file: #filePath,
                line: registrationLine.value
            )])
        case _ where name.contains("testDriftIsReportedAtTheStub"):
            XCTAssertEqual(failures.map(\.line), [registrationLine.value])
            XCTAssertEqual(failures.first?.description.components(separatedBy: "\n").last, "- JSON: $.email is in the stub's answer but missing from the server's")
        default:
            XCTAssertEqual(failures, [])
        }
    }

    func testDriftIsReportedAtTheStub() async throws {
        let server = try LocalServer { _ in ServedResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"id":1}"#.utf8)) }
        self.server.value = server
        await stubScope.startCheckingForDrift()
        let stub = await stubScope.stub(.get(server.url("/users/1")), with: .json(#"{"id": 1, "email": "a@b.c"}"#))
        registrationLine.value = stub.location.line
        _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
    }

    func testUnmatchedRequestFailsThisTest() async {
        _ = try? await getText("https://api.example.com/unstubbed")
    }

    func testUnmatchedRequestIsRecordedAtTheNearestStub() async {
        let stub = await stubScope.stub(.get("https://api.example.com/users"), with: .status(200))
        registrationLine.value = stub.location.line
        var request = URLRequest(url: URL(string: "https://api.example.com/users")!)
        request.httpMethod = "POST"
        _ = try? await URLSession.stubbed.data(for: request)
    }

    func testUnmetExpectationFailsAtTheRegistration() async {
        let stub = await stubScope.stub(.get("https://api.example.com/twice"), with: .status(200), times: .exactly(2))
        registrationLine.value = stub.location.line
    }

    func testACleanMethodRecordsNothing() async throws {
        await stubScope.stub(.get("https://api.example.com/ok"), with: .status(200), times: .once)
        _ = try await getText("https://api.example.com/ok")
    }

    /// A skipped method's scope reports nothing: its unmet expectation and its
    /// unmatched request would turn the skip into a failure.
    func testASkippedMethodRecordsNothing() async throws {
        await stubScope.stub(.get("https://api.example.com/once"), with: .status(200), times: .once)
        _ = try? await getText("https://api.example.com/unstubbed")
        throw XCTSkip("skipped on purpose, after registering a stub it never asks for")
    }
}

/// Proves that a test case's options giving a cassette's mode without a cassette
/// fail each test method before it runs, with the reason, by capturing the failure.
final class StubbedTestCaseRefusedOptionsTests: FailureCapturingTestCase {
    override var stubScopeOptions: StubScopeOptions {
        StubScopeOptions(cassetteMode: .replay, redaction: .standard)
    }

    private let ran = Shared(false)

    override func invokeTest() {
        super.invokeTest()
        XCTAssertFalse(ran.value, "the method ran though its scope could not be set up")
        XCTAssertEqual(captured.map(\.description), [
            "URLStubs: the scope's options set cassetteMode and redaction but no cassette, so nothing would be replayed, recorded or redacted. Give the options a cassette (cassette: .at(url), or .named(\"users\", in: directory)), or leave those fields out.",
        ])
    }

    func testModeWithoutCassetteFailsBeforeTheMethodRuns() {
        ran.value = true
    }
}

/// Proves that a cassette's stubs, under XCTest (which does not say where a test is
/// written), are located at the cassette file: a request near one is reported there.
final class StubbedTestCaseCassetteLocationTests: FailureCapturingTestCase {
    private static let cassette = guideCassettes.appendingPathComponent("guide-user.har")

    override var stubScopeOptions: StubScopeOptions {
        StubScopeOptions(cassette: .at(Self.cassette))
    }

    override func invokeTest() {
        super.invokeTest()
        let failures = captured
        XCTAssertEqual(failures.map(\.file), [Self.cassette.path])
        XCTAssertEqual(failures.map(\.line), [1])
        XCTAssertEqual(failures.first?.description.components(separatedBy: "\n").dropFirst(2).first, "  1. GET https://api.example.com/users/42 [no query, no body] (registered at Cassettes/guide-user.har:1)")
    }

    func testARequestNearACassetteEntryIsReportedAtTheCassette() async throws {
        let user42 = try await getText("https://api.example.com/users/42")
        XCTAssertEqual(user42, #"{"id": 42, "name": "Ada"}"#)
        do {
            _ = try await getText("https://api.example.com/users/43")
            XCTFail("user 43 is in no stub or cassette entry")
        } catch {}
    }
}

/// A `StubbedTestCase` whose scopes are set up by options: a clock, a seed, a name.
final class StubbedTestCaseOptionsTests: StubbedTestCase {
    override var stubScopeOptions: StubScopeOptions {
        StubScopeOptions(name: "options of \(name)", clock: { ManualClock() }, seed: 9)
    }

    func testOptionsSetUpEachTestMethodsScope() async throws {
        let clock = await stubScope.clock
        XCTAssertTrue(clock is ManualClock)
        await stubScope.injectFaults(rate: 0)
        let seed = await stubScope.seed
        XCTAssertEqual(seed, 9)
        await stubScope.stub(.get("https://api.example.com/late"), with: .text("late").delayed(by: .seconds(3)))
        let late = Task { try await getText("https://api.example.com/late") }
        try await XCTUnwrap(clock as? ManualClock).waitForSleepers(atLeast: 1, timeout: .patience)
        await (clock as? ManualClock)?.advance(by: .seconds(3))
        let text = try await late.value
        XCTAssertEqual(text, "late")
    }
}
