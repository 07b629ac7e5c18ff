import Foundation
import Testing
@_spi(Integration) import URLStubs
@testable import URLStubsTesting

/// The report of a suite's baseline stubs that no test case used.
@Suite("Unused baseline stubs of a suite")
struct BaselineTallyTests {
    static let trait = StubSourceLocation(fileID: "App/ClientTests.swift", filePath: "/src/ClientTests.swift", line: 10, column: 8)

    /// Opens a scope, registers `paths` as baseline stubs at lines 11, 12, …, sends
    /// GETs for `requested`, and returns the scope's final stub usage.
    static func testCase(baseline paths: [String], requested: [String], tally: BaselineTally) async -> [StubUsage] {
        let outcome = await StubScope.withNewScope(name: nil, location: trait) { scope in
            for (offset, path) in paths.enumerated() {
                await scope.stub(.get("https://baseline.example.com/\(path)"), with: .text(path), fileID: trait.fileID, filePath: trait.filePath, line: 11 + offset, column: 5)
            }
            await tally.markBaseline(await scope.usage)
            for path in requested {
                _ = try? await scope.data(from: URL(string: "https://baseline.example.com/\(path)")!)
            }
        }
        return outcome.usage
    }

    @Test("a baseline stub no test case used is reported once for the suite, at its line; stubs some test used are not")
    func unusedIsReported() async throws {
        let tally = BaselineTally(owner: Self.trait)
        tally.add(await Self.testCase(baseline: ["config", "flags", "legacy"], requested: ["config"], tally: tally))
        tally.add(await Self.testCase(baseline: ["config", "flags", "legacy"], requested: ["flags", "flags"], tally: tally))
        let report = tally.unusedStubs(suite: "ClientTests")
        #expect(report.map(\.0) == [
            "URLStubs: the baseline stub GET https://baseline.example.com/legacy (registered at App/ClientTests.swift:13) of suite ClientTests answered no request in any of the 2 test cases of it that ran; remove it, or move it to the tests that need it (in a run of some of the suite's tests, the others may use it).",
        ])
        #expect(report.map(\.1.line) == [13])
    }

    @Test("in nested suites with baselines of their own, a test case of the inner suite counts for the outer suite's baseline too")
    func nestedSuites() async throws {
        let inner = StubSourceLocation(fileID: "App/ClientTests.swift", filePath: "/src/ClientTests.swift", line: 30, column: 12)
        let outerTally = BaselineTally(owner: Self.trait)
        let innerTally = BaselineTally(owner: inner, enclosing: outerTally)
        #expect(innerTally.tally(ownedBy: Self.trait) === outerTally)
        #expect(innerTally.tally(ownedBy: inner) === innerTally)
        // The outer suite's own test uses nothing; the inner suite's test uses the
        // outer baseline's stub "config" (and its own baseline, at line 11 too, is
        // marked on the inner tally).
        outerTally.add(await Self.testCase(baseline: ["config"], requested: [], tally: outerTally))
        innerTally.add(await Self.testCase(baseline: ["config"], requested: ["config"], tally: outerTally))
        #expect(outerTally.unusedStubs(suite: "ClientTests").isEmpty)
    }

    @Test("a suite whose test cases all ran no request through a baseline stub reports each; a suite with no test case reports nothing")
    func noUse() async throws {
        let tally = BaselineTally(owner: Self.trait)
        #expect(tally.unusedStubs(suite: "Empty").isEmpty)
        tally.add(await Self.testCase(baseline: ["a", "b"], requested: [], tally: tally))
        #expect(tally.unusedStubs(suite: "S").map(\.1.line) == [11, 12])
    }
}
