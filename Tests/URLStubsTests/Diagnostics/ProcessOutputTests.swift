import Foundation
import Testing
@testable import URLStubs

/// What URLStubs writes to the process's own output, where no test owns the
/// message: each case runs in a child process whose output it reads whole.
@Suite("What is written to standard output and standard error")
struct ProcessOutputTests {
    #if os(macOS) || os(Linux) || os(Windows)
    @Test("faults and a shuffle on the global scope each write one warning to standard error, naming the call, its line and why it had no effect", .enabled(if: DeliveryTests.runsExitTests, "set URLSTUBS_EXIT_TESTS=1 and filter on ProcessOutputTests"))
    func globalScopeWarnings() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            await StubScope.global.injectFaults(rate: 1, fileID: "App/OrdersTests.swift", filePath: "/src/App/OrdersTests.swift", line: 12, column: 5)
            await StubScope.global.shuffleResponseOrder(.get("https://api.example.com/orders"), fileID: "App/OrdersTests.swift", filePath: "/src/App/OrdersTests.swift", line: 13, column: 5)
        }
        let lines = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("URLStubs") }
        #expect(lines == [
            "URLStubs warning: The faults for every request at App/OrdersTests.swift:12 had no effect: the global scope is shared by every test running at the same time, so its decisions could never be replayed; call it on the test's scope.",
            "URLStubs warning: The response order shuffle for GET https://api.example.com/orders at App/OrdersTests.swift:13 had no effect: the global scope is shared by every test running at the same time, so its decisions could never be replayed; call it on the test's scope.",
        ])
    }

    @Test("a stub registered on a scope that has ended writes a warning to standard error and is not kept", .enabled(if: DeliveryTests.runsExitTests, "set URLSTUBS_EXIT_TESTS=1 and filter on ProcessOutputTests"))
    func stubOnAnEndedScope() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let ended = try await withStubScope { $0 }
            await ended.stub(.get("https://api.example.com/late"), with: .status(204), fileID: "App/LateTests.swift", filePath: "/src/App/LateTests.swift", line: 20, column: 9)
            #expect(StubRegistry.shared.usage(in: ended).isEmpty)
        }
        let lines = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("URLStubs") }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("URLStubs warning: stub(GET https://api.example.com/late) at App/LateTests.swift:20 was ignored: scope #") == true)
        #expect(lines.first?.hasSuffix(" has already ended.") == true)
    }

    @Test("a StubbedTestCase method whose scope was seeded prints the seed line to standard output, with how to replay it", .enabled(if: DeliveryTests.runsExitTests, "set URLSTUBS_EXIT_TESTS=1 and filter on ProcessOutputTests"))
    func seededTestCasePrintsTheSeed() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            SeededMethodCase.runSeededMethod()
        }
        let lines = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("URLStubs") }
        #expect(lines == [
            "URLStubs: this test case's scope was seeded; if it failed, replay it with the same decisions. Faults seeded with 4242 (replay with URLSTUBS_SEED=4242).",
        ])
    }
    #endif
}
