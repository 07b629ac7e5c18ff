#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("A problem's severity is stored with it", .timeLimit(.minutes(1)))
struct ProblemSeverityTests {
    @Test("an unmatched request is an error; a request abandoned when its scope ends is a warning, and isWarning agrees; the error names the scope as a value")
    func severities() async throws {
        let opened = Shared<StubScope?>(nil)
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope("severities") { scope in
                opened.value = scope
                await scope.stub(.get("https://api.example.com/slow"), with: .noResponse)
                let waiting = Task { try? await getText("https://api.example.com/slow") }
                _ = try await scope.waitForRequest(matching: .get("https://api.example.com/slow"), timeout: .patience)
                _ = try? await getText("https://api.example.com/unstubbed")
                _ = waiting
            }
        }
        let problems = try #require(error?.problems)
        #expect(problems.map(\.severity) == [.error, .warning])
        #expect(problems.map(\.isWarning) == [false, true])
        #expect(error?.scope == opened.value)
        #expect(error?.scopeTitle.hasPrefix("\(try #require(opened.value)) \"severities\"") == true)
    }

    @Test("an unmet expectation and an unusable stub carry the stub's handle, the one stub(_:with:) returned")
    func problemsCarryTheStub() async throws {
        let stubs = Shared<[Stub]>([])
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                stubs.value.append(await scope.stub(.get("https://api.example.com/once"), with: .status(200), times: .once))
                stubs.value.append(await scope.stub(.get("https://api.example.com/bad"), with: .status(42)))
            }
        }
        var unmet: Stub?
        var invalid: Stub?
        for problem in error?.problems ?? [] {
            switch problem.kind {
            case let .unmetExpectation(stub, expected, actual):
                #expect(expected == .once)
                #expect(actual == 0)
                unmet = stub
            case let .invalidStub(stub, _):
                invalid = stub
            default:
                Issue.record("unexpected problem \(problem)")
            }
        }
        #expect(unmet == stubs.value.first)
        #expect(invalid == stubs.value.last)
        #expect(unmet?.pattern == "GET https://api.example.com/once")
    }
}
