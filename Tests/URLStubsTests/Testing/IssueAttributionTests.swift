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

@Suite("Issues are attributed to the test that owned the scope", .timeLimit(.minutes(1)))
struct IssueAttributionTests {
    @Test("an unmatched request becomes an issue of this test, located at the test declaration")
    func unmatchedRequestIsAnIssueOfThisTest() async throws {
        let declaration = try #require(Test.current).sourceLocation
        try await withKnownIssue {
            try await underStubbedTrait {
                _ = try? await getText("https://api.example.com/never-stubbed")
            }
        } matching: { issue in
            issue.sourceLocation == declaration
                && issue.comments.contains { $0.rawValue.hasPrefix("URLStubs: no stub matches GET https://api.example.com/never-stubbed in scope #") }
        }
    }

    @Test("an unmatched request under .stubbed { } points at the trait")
    func unmatchedRequestPointsAtTheTrait() async throws {
        let line = Shared(0)
        let trait: StubbedTrait = .stubbed { _ in }; line.value = #line
        try await withKnownIssue {
            try await underStubbedTrait(trait) {
                _ = try? await getText("https://api.example.com/never-stubbed")
            }
        } matching: { issue in
            issue.sourceLocation?.line == line.value && issue.sourceLocation?.fileID.hasSuffix("IssueAttributionTests.swift") == true
        }
    }

    @Test("an unmet expectation becomes an issue located at the stub's registration")
    func unmetExpectationPointsAtTheRegistration() async throws {
        let registration = Shared<SourceLocation?>(nil)
        try await withKnownIssue {
            try await underStubbedTrait {
                let stub = await StubScope.currentTest().stub(.post("https://api.example.com/events"), with: .status(202), times: .exactly(2))
                registration.value = SourceLocation(fileID: stub.location.fileID, filePath: stub.location.filePath, line: stub.location.line, column: stub.location.column)
                var request = URLRequest(url: URL(string: "https://api.example.com/events")!)
                request.httpMethod = "POST"
                _ = try await URLSession.stubbed.data(for: request)
            }
        } matching: { issue in
            issue.sourceLocation == registration.value
                && issue.comments.map(\.rawValue) == ["The stub POST https://api.example.com/events expected exactly 2 requests but was requested 1 time."]
        }
    }

    @Test("every problem of the scope becomes its own issue")
    func everyProblemIsAnIssue() async throws {
        let count = Shared(0)
        try await withKnownIssue {
            try await underStubbedTrait {
                await StubScope.currentTest().stub(.get("https://api.example.com/needed"), with: .status(200), times: .once)
                _ = try? await getText("https://api.example.com/one")
                _ = try? await getText("https://api.example.com/two")
            }
        } matching: { _ in
            count.value += 1
            return true
        }
        #expect(count.value == 3)
    }

    @Test("the test's own error is still thrown after the scope's issues are recorded")
    func testErrorIsRethrown() async throws {
        struct Boom: Error {}
        try await withKnownIssue {
            try await underStubbedTrait {
                _ = try? await getText("https://api.example.com/unmatched")
                throw Boom()
            }
        } matching: { issue in
            if case .errorCaught(let error) = issue.kind { return error is Boom }
            return issue.comments.contains { $0.rawValue.contains("no stub matches") }
        }
    }

    @Test("an unmatched request's URLError escaping the test is not reported a second time")
    func escapingURLErrorIsNotReportedTwice() async throws {
        let count = Shared(0)
        try await withKnownIssue {
            try await underStubbedTrait {
                _ = try await getText("https://api.example.com/escapes")
            }
        } matching: { issue in
            count.value += 1
            return issue.comments.contains { $0.rawValue.hasPrefix("URLStubs: no stub matches GET https://api.example.com/escapes") }
        }
        #expect(count.value == 1)
    }

    @Test("a request left waiting when the scope ends is reported as a warning, which does not fail the test")
    func abandonedRequestIsAWarning() async throws {
        let pending = Shared<Task<Void, Never>?>(nil)
        try await withKnownIssue {
            try await underStubbedTrait {
                let scope = StubScope.currentTest()
                await scope.stub(.get("https://api.example.com/slow"), with: .status(200).delayed(by: .seconds(30)))
                pending.value = Task { _ = try? await getText("https://api.example.com/slow") }
                _ = try await scope.waitForRequest(timeout: .seconds(5))
            }
        } matching: { issue in
            issue.severity == .warning
                && issue.comments.contains { $0.rawValue.hasPrefix("URLStubs: GET https://api.example.com/slow was still waiting for its response when scope #") }
        }
        await pending.value?.value
    }

    @Test("withStubScope does not throw when its only problems are abandoned requests")
    func abandonedRequestDoesNotThrow() async throws {
        let pending = try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/slow"), with: .status(200).delayed(by: .seconds(30)))
            let pending = Task { _ = try? await getText("https://api.example.com/slow") }
            _ = try await scope.waitForRequest(timeout: .seconds(5))
            return pending
        }
        await pending.value
    }

    @Test("sibling tests running in parallel with failing scopes get no issues", .stubbed, arguments: 0..<10)
    func siblingsStayClean(index: Int) async throws {
        await StubScope.currentTest().stub(.get("https://api.example.com/never-stubbed"), with: .text("sibling \(index)"))
        #expect(try await getText("https://api.example.com/never-stubbed") == "sibling \(index)")
    }
}
