#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubsTesting

/// Runs `body` the way a test under `.stubbed` runs, on the calling test's task, so
/// that the issues the trait records when its scope ends can be caught by
/// `withKnownIssue`.
private func underStubbedTrait(
    _ trait: StubbedTrait = .stubbed,
    _ body: @escaping @Sendable () async throws -> Void
) async throws {
    let test = try #require(Test.current)
    try await trait.provideScope(for: test, testCase: Test.Case.current, performing: body)
}

/// Runs `body` and returns every issue it recorded, in order, so that a test can
/// compare the whole list instead of accepting whatever matches.
private func recordedIssues(_ body: @escaping @Sendable () async throws -> Void) async throws -> [Issue] {
    let issues = Shared<[Issue]>([])
    try await withKnownIssue {
        try await body()
    } matching: { issue in
        issues.value.append(issue)
        return true
    }
    return issues.value
}

/// The first line of the issue's only comment, scope numbers masked.
private func headline(_ issue: Issue) -> String {
    masked(String(issue.comments.map(\.rawValue).joined().split(separator: "\n").first ?? ""))
}

@Suite("Issues are attributed to the test that owned the scope", .timeLimit(.minutes(1)))
struct IssueAttributionTests {
    static let file = "URLStubsTests/IssueAttributionTests.swift"

    @Test("an unmatched request becomes one issue of this test, located at the test declaration, saying what the request's error says")
    func unmatchedRequestIsAnIssueOfThisTest() async throws {
        let test = try #require(Test.current)
        let failure = Shared<URLError?>(nil)
        let issues = try await recordedIssues {
            try await underStubbedTrait {
                failure.value = await thrownError(URLError.self) { _ = try await getText("https://api.example.com/never-stubbed") }
            }
        }
        #expect(failure.value?.code == .resourceUnavailable)
        #expect(issues.map(\.comments) == [[Comment(rawValue: failure.value?.localizedDescription ?? "no error")]])
        #expect(issues.map(\.sourceLocation) == [test.sourceLocation])
        #expect(issues.map(headline) == ["URLStubs: no stub matches GET https://api.example.com/never-stubbed in scope #N \"\(test.displayName ?? test.name)\" (opened at \(Self.file):\(test.sourceLocation.line))."])
    }

    @Test("an unmatched request under .stubbed { } becomes one issue located at the trait")
    func unmatchedRequestPointsAtTheTrait() async throws {
        let line = Shared(0)
        let trait: StubbedTrait = .stubbed { _ in }; line.value = #line
        let failure = Shared<URLError?>(nil)
        let issues = try await recordedIssues {
            try await underStubbedTrait(trait) {
                failure.value = await thrownError(URLError.self) { _ = try await getText("https://api.example.com/never-stubbed") }
            }
        }
        #expect(failure.value?.code == .resourceUnavailable)
        #expect(issues.map(\.comments) == [[Comment(rawValue: failure.value?.localizedDescription ?? "no error")]])
        #expect(issues.map { $0.sourceLocation?.line } == [line.value])
        #expect(issues.map { $0.sourceLocation?.fileID } == [Self.file])
    }

    @Test("an unmet expectation becomes one issue located at the stub's registration")
    func unmetExpectationPointsAtTheRegistration() async throws {
        let registration = Shared<SourceLocation?>(nil)
        let issues = try await recordedIssues {
            try await underStubbedTrait {
                let stub = await StubScope.currentTest().stub(.post("https://api.example.com/events"), with: .status(202), times: .exactly(2))
                registration.value = SourceLocation(fileID: stub.location.fileID, filePath: stub.location.filePath, line: stub.location.line, column: stub.location.column)
                var request = URLRequest(url: URL(string: "https://api.example.com/events")!)
                request.httpMethod = "POST"
                _ = try await URLSession.stubbed.data(for: request)
            }
        }
        #expect(issues.map(\.sourceLocation) == [registration.value])
        #expect(issues.map { $0.comments.map(\.rawValue) } == [["The stub POST https://api.example.com/events expected exactly 2 requests but was requested 1 time."]])
    }

    @Test("every problem of the scope becomes its own issue, in order: the unmatched requests, then the unmet expectation")
    func everyProblemIsAnIssue() async throws {
        let test = try #require(Test.current)
        let issues = try await recordedIssues {
            try await underStubbedTrait {
                await StubScope.currentTest().stub(.get("https://api.example.com/needed"), with: .status(200), times: .once)
                _ = try? await getText("https://api.example.com/one")
                _ = try? await getText("https://api.example.com/two")
            }
        }
        let scope = "scope #N \"\(test.displayName ?? test.name)\" (opened at \(Self.file):\(test.sourceLocation.line))"
        #expect(issues.map(headline) == [
            "URLStubs: no stub matches GET https://api.example.com/one in \(scope).",
            "URLStubs: no stub matches GET https://api.example.com/two in \(scope).",
            "The stub GET https://api.example.com/needed expected exactly 1 request but was requested 0 times.",
        ])
    }

    @Test("the test's own error is still thrown after the scope's issues are recorded: one issue for the problem, then one for the error")
    func testErrorIsRethrown() async throws {
        struct Boom: Error {}
        let issues = try await recordedIssues {
            try await underStubbedTrait {
                _ = try? await getText("https://api.example.com/unmatched")
                throw Boom()
            }
        }
        #expect(issues.count == 2)
        #expect(issues.first.map(headline)?.hasPrefix("URLStubs: no stub matches GET https://api.example.com/unmatched in scope #N") == true)
        guard case let .errorCaught(error)? = issues.last?.kind else {
            Issue.record("expected the test's error as the last issue, got \(issues)")
            return
        }
        #expect(error is Boom)
    }

    @Test("an unmatched request's URLError escaping the test is reported once, as the scope's problem")
    func escapingURLErrorIsNotReportedTwice() async throws {
        let issues = try await recordedIssues {
            try await underStubbedTrait {
                _ = try await getText("https://api.example.com/escapes")
            }
        }
        #expect(issues.count == 1)
        #expect(issues.first.map(headline)?.hasPrefix("URLStubs: no stub matches GET https://api.example.com/escapes in scope #N") == true)
        if case .errorCaught? = issues.first?.kind {
            Issue.record("the escaping error was reported as a caught error")
        }
    }

    @Test("a request left waiting when the scope ends is reported as one warning, with the whole abandoned-request message, which does not fail the test")
    func abandonedRequestIsAWarning() async throws {
        let test = try #require(Test.current)
        let pending = Shared<Task<Void, Never>?>(nil)
        let issues = try await recordedIssues {
            try await underStubbedTrait {
                let scope = StubScope.currentTest()
                await scope.stub(.get("https://api.example.com/slow"), with: .status(200).delayed(by: .seconds(3_600)))
                pending.value = Task { _ = try? await getText("https://api.example.com/slow") }
                _ = try await scope.waitForRequest(timeout: .patience)
            }
        }
        await pending.value?.value
        #expect(issues.map(\.severity) == [.warning])
        #expect(issues.map { masked($0.comments.map(\.rawValue).joined()) } == [
            "URLStubs: GET https://api.example.com/slow was still waiting for its response when scope #N \"\(test.displayName ?? test.name)\" (opened at \(Self.file):\(test.sourceLocation.line)) ended; await it inside the scope, or cancel it.",
        ])
    }

    @Test("withStubScope does not throw when its only problems are abandoned requests")
    func abandonedRequestDoesNotThrow() async throws {
        let pending = try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/slow"), with: .status(200).delayed(by: .seconds(3_600)))
            let pending = Task { _ = try? await getText("https://api.example.com/slow") }
            _ = try await scope.waitForRequest(timeout: .patience)
            return pending
        }
        await pending.value
    }

    @Test("scopes of test cases running at the same time each report only their own problems: one failing case among ten yields exactly its own issue")
    func concurrentCasesReportOnlyTheirOwnProblems() async throws {
        let cases = 10
        let allOpen = Barrier(parties: cases)
        let failed = Latch()
        let issues = try await recordedIssues {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<cases {
                    group.addTask {
                        try await underStubbedTrait {
                            await StubScope.currentTest().stub(.get("https://api.example.com/shared"), with: .text("case \(index)"))
                            await allOpen.arrive() // Every case's scope is open before case 0 fails.
                            if index == 0 {
                                _ = try? await getText("https://api.example.com/only-case-0-asks")
                                failed.open()
                            } else {
                                await failed.wait() // And stays open until it did.
                                let body = try await getText("https://api.example.com/shared")
                                #expect(body == "case \(index)")
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(issues.count == 1)
        #expect(issues.first.map(headline)?.hasPrefix("URLStubs: no stub matches GET https://api.example.com/only-case-0-asks in scope #N") == true)
    }

    /// A client's own error, which hides the URLError it wraps.
    struct ClientFailed: Error {}

    @Test("a test that throws its own error after an unmatched request still gets the unmatched request's issue, near miss included, and then its error")
    func bodyErrorKeepsTheIssue() async throws {
        let issues = try await recordedIssues {
            try await underStubbedTrait {
                await StubScope.currentTest().stub(.get("https://api.example.com/users/1"), with: .status(200))
                do {
                    _ = try await getText("https://api.example.com/users/2")
                } catch {
                    throw ClientFailed()
                }
            }
        }
        #expect(issues.count == 2)
        #expect(issues.first.map(headline)?.hasPrefix("URLStubs: no stub matches GET https://api.example.com/users/2 in scope #N") == true)
        #expect(issues.first?.comments.map(\.rawValue).joined().contains("GET https://api.example.com/users/1") == true)
        #expect(issues.last?.error is ClientFailed)
    }

    @Test(
        "a seeded test case whose scope ends with no problem records its seed and replay command as a warning, so that a failure of its own can be replayed",
        .enabled(if: seedsAreChosenByTests, "URLSTUBS_SEED overrides the seed this test chooses")
    )
    func seedIsReportedAsAWarning() async throws {
        let test = try #require(Test.current)
        let issues = try await recordedIssues {
            try await underStubbedTrait {
                await StubScope.currentTest().injectFaults(rate: 0, seed: 77)
                Issue.record("the test's own failure")
            }
        }
        #expect(issues.map(\.severity) == [.error, .warning])
        #expect(issues.last?.comments.map(\.rawValue) == [
            "URLStubs: this test case's scope was seeded; if it failed, replay it with the same decisions. Faults seeded with 77 (replay with URLSTUBS_SEED=77).",
        ])
        #expect(issues.last?.sourceLocation == test.sourceLocation)
    }
}
