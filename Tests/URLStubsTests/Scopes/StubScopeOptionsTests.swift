#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubsTesting

/// The cassettes committed next to the recording tests.
private let cassettes = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Recording/Cassettes", isDirectory: true)

/// A JSON-RPC `ping` with `id`, as the `jsonrpc-trait` cassette recorded one.
private func ping(id: Int) async throws -> String {
    var request = URLRequest(url: URL(string: "https://rpc.example.com/mcp")!)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#.utf8)
    return String(decoding: try await URLSession.stubbed.data(for: request).0, as: UTF8.self)
}

/// Whether the scope's clock is a `ManualClock`.
private func hasManualClock(_ scope: StubScope) async -> Bool {
    await scope.clock is ManualClock
}

@Suite("StubScopeOptions: one value for withStubScope, the trait and StubbedTestCase", .timeLimit(.minutes(1)))
struct StubScopeOptionsTests {
    @Test("merging takes each field the nearer options set and keeps each field they leave nil, for all seven fields")
    func mergingIsFieldByField() async throws {
        let suite = StubScopeOptions(
            name: "suite",
            clock: { ContinuousClock() },
            cassette: .named("suite"),
            cassetteMode: .recordMissing,
            redaction: .standard.adding(.header("X-Suite")),
            cassetteMatching: .jsonRPC,
            seed: 1
        )
        let everything = StubScopeOptions(
            name: "test",
            clock: { ManualClock() },
            cassette: .perTestCase,
            cassetteMode: .record,
            redaction: .standard.adding(.header("X-Test")),
            cassetteMatching: .standard,
            seed: 2
        )
        let won = suite.merging(everything)
        #expect(won.name == "test")
        #expect(won.clock?() is ManualClock)
        #expect(won.cassette == CassetteFile.perTestCase)
        #expect(won.cassetteMode == .record)
        #expect(won.redaction?.rules.map(\.description).last == "header X-Test")
        #expect(won.cassetteMatching?.description == CassetteMatching.standard.description)
        #expect(won.seed == 2)

        let kept = suite.merging(StubScopeOptions())
        #expect(kept.name == "suite")
        #expect(kept.clock?() is ContinuousClock)
        #expect(kept.cassette == CassetteFile.named("suite"))
        #expect(kept.cassetteMode == .recordMissing)
        #expect(kept.redaction?.rules.map(\.description).last == "header X-Suite")
        #expect(kept.cassetteMatching?.description == CassetteMatching.jsonRPC.description)
        #expect(kept.seed == 1)
    }

    @Test("the traits of a test merge in order, the later winning field by field, and the cassette's directory is the file of the trait that gave it")
    func traitsMergeInOrder() async throws {
        let suite: StubbedTrait = .stubbed(StubScopeOptions(name: "suite", cassette: "shared-config", seed: 7))
        let test: StubbedTrait = .stubbed(StubScopeOptions(name: "test", clock: { ManualClock() }))
        let (options, sourceFile) = StubbedTrait.merge([suite, test], testFile: "/elsewhere/Test.swift")
        #expect(options.name == "test")
        #expect(options.clock?() is ManualClock)
        #expect(options.cassette == CassetteFile.named("shared-config"))
        #expect(options.seed == 7)
        #expect(sourceFile == #filePath)
        #expect(StubbedTrait.merge([.stubbed], testFile: "/elsewhere/Test.swift").sourceFile == "/elsewhere/Test.swift")
    }

    @Test(".stubbed(cassette:) on a test keeps the suite's mode, redaction rules and matching when it gives none, and its own win when it does")
    func cassetteTraitKeepsTheSuitesFields() {
        let suite: StubbedTrait = .stubbed(StubScopeOptions(
            cassetteMode: .recordMissing,
            redaction: .standard.adding(.header("X-Customer-Id")),
            cassetteMatching: .standard.comparingHeaders()
        ))
        let (inherited, _) = StubbedTrait.merge([suite, .stubbed(cassette: "orders")], testFile: "/elsewhere/Test.swift")
        #expect(inherited.cassette == CassetteFile.named("orders"))
        #expect(inherited.cassetteMode == .recordMissing)
        #expect(inherited.redaction?.rules.map(\.description).last == "header X-Customer-Id")
        #expect(inherited.cassetteMatching?.description == CassetteMatching.standard.comparingHeaders().description)
        let (own, _) = StubbedTrait.merge([suite, .stubbed(cassette: "orders", mode: .replay, redaction: .standard, matching: .standard)], testFile: "/elsewhere/Test.swift")
        #expect(own.cassetteMode == .replay)
        #expect(own.redaction?.rules.map(\.description) == Redaction.standard.rules.map(\.description))
        #expect(own.cassetteMatching?.description == CassetteMatching.standard.description)
    }

    @Test("withStubScope takes a cassette and a clock together: the cassette answers, the clock times the stubs")
    func cassetteAndClockTogether() async throws {
        let clock = ManualClock()
        try await withStubScope(clock: clock, cassette: cassettes.appendingPathComponent("shared-config.har")) { scope in
            #expect(await scope.clock as? ManualClock === clock)
            #expect(try await getText("https://cassette.example.com/config") == #"{"theme":"dark","x":1}"#)
            await scope.stub(.get("https://cassette.example.com/late"), with: .text("late").delayed(by: .seconds(30)))
            let late = Task { try await getText("https://cassette.example.com/late") }
            try await clock.waitForSleepers(atLeast: 1, timeout: .patience)
            await clock.advance(by: .seconds(30))
            #expect(try await late.value == "late")
        }
    }

    @Test("withStubScope(options): the name is in the scope's messages, the seed is the faults' seed, the matching rules replay")
    func withStubScopeTakesOptions() async throws {
        let options = StubScopeOptions(
            name: "checkout",
            cassette: .at(cassettes.appendingPathComponent("jsonrpc-trait.har")),
            cassetteMatching: .jsonRPC,
            seed: 42
        )
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope(options) { scope in
                let answer = try await ping(id: 4242)
                #expect(answer == #"{"id":4242,"jsonrpc":"2.0","result":{}}"#)
                await scope.stub(.get("https://api.example.com/orders"), with: .text("orders"))
                await scope.injectFaults(.get("https://api.example.com/orders"), rate: 0)
                #expect(await scope.seed == 42)
                _ = try? await getText("https://api.example.com/unstubbed")
            }
        }
        #expect(error?.scopeTitle.contains("\"checkout\"") == true)
    }

    @Test("a seed: that differs from the options' seed is reported, and the options' seed is used")
    func conflictingSeed() async throws {
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope(StubScopeOptions(seed: 42)) { scope in
                await scope.injectFaults(rate: 0, seed: 7)
                #expect(await scope.seed == 42)
            }
        }
        let problem = try #require(error?.problems.first)
        #expect(error?.problems.count == 1)
        #expect(problem.message.contains("seed 7 differs from the seed 42 of the scope's options"))
    }

    @Test("the options' redaction is the cassette's: a rule that removed nothing refuses to write it")
    func redactionApplies() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("options-\(UUID().uuidString)")
        let options = StubScopeOptions(cassette: .named("never-written", in: directory), cassetteMode: .record, redaction: .standard.adding(.header("X-Never")))
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope(options) { _ in }
        }
        #expect(error?.problems.map(\.message) == ["URLStubs: did not write the cassette \(directory.path)/never-written.har: the redaction rule header X-Never removed nothing in its 0 entries, so what it was meant to remove may be in them. Nothing was written. Fix the rule (a JSON path, a header or item name spelled as the exchanges spells it), or remove it."])
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test("a cassette per test case is refused by withStubScope, which has no test case, with the reason")
    func perTestCaseOutsideTheTrait() async throws {
        let error = await #expect(throws: CassetteError.self) {
            try await withStubScope(StubScopeOptions(cassette: .perTestCase)) { _ in }
        }
        #expect(error?.description == "URLStubs: the cassette .perTestCase names one file per test case, but this scope is not a test case's under the .stubbed trait. Name the file instead: .named(\"users\") or .at(url).")
    }

    @Test("withStubScope refuses a cassette's mode, redaction or matching given without a cassette, naming each field, before its body runs")
    func cassetteFieldsWithoutACassette() async throws {
        let cases: [(StubScopeOptions, [String], String)] = [
            (StubScopeOptions(cassetteMode: .record), ["cassetteMode"], "cassetteMode"),
            (StubScopeOptions(redaction: .standard), ["redaction"], "redaction"),
            (StubScopeOptions(cassetteMatching: .standard), ["cassetteMatching"], "cassetteMatching"),
            (StubScopeOptions(cassetteMode: .replay, cassetteMatching: .standard), ["cassetteMode", "cassetteMatching"], "cassetteMode and cassetteMatching"),
            (
                StubScopeOptions(name: "orders", cassetteMode: .recordMissing, redaction: .standard, cassetteMatching: .standard, seed: 3),
                ["cassetteMode", "redaction", "cassetteMatching"],
                "cassetteMode, redaction and cassetteMatching"
            ),
        ]
        for (options, fields, written) in cases {
            var ran = false
            let error = await #expect(throws: CassetteError.self) {
                try await withStubScope(options) { _ in ran = true }
            }
            guard case let .noCassette(named)? = error else {
                Issue.record("expected .noCassette, got \(String(describing: error))")
                continue
            }
            #expect(named == fields)
            #expect(error?.description == "URLStubs: the scope's options set \(written) but no cassette, so nothing would be replayed, recorded or redacted. Give the options a cassette (cassette: .at(url), or .named(\"users\", in: directory)), or leave \(fields.count == 1 ? "that field" : "those fields") out.")
            #expect(!ran)
        }
    }

    @Test("withStubScope(cassette:mode:...) refuses a mode, redaction or matching given with a nil cassette URL, naming each argument, before its body runs; with none of them a nil cassette is no cassette")
    func cassetteArgumentsWithANilCassette() async throws {
        let missing: URL? = nil // As Bundle's url(forResource:withExtension:) returns for a file it cannot find.
        var ran = false
        let one = await #expect(throws: CassetteError.self) {
            try await withStubScope(cassette: missing, mode: .record) { _ in ran = true }
        }
        #expect(one?.description == "URLStubs: withStubScope(cassette:...) was given mode but a nil cassette, so nothing would be replayed, recorded or redacted. Check the cassette's URL (Bundle's url(forResource:withExtension:) is nil for a file it cannot find), or leave that argument out.")
        let all = await #expect(throws: CassetteError.self) {
            try await withStubScope(cassette: missing, mode: .replay, redaction: .standard, matching: .standard) { _ in ran = true }
        }
        guard case let .nilCassette(parameters)? = all else {
            Issue.record("expected .nilCassette, got \(String(describing: all))")
            return
        }
        #expect(parameters == ["mode", "redaction", "matching"])
        #expect(all?.description.hasPrefix("URLStubs: withStubScope(cassette:...) was given mode, redaction and matching but a nil cassette") == true)
        #expect(all?.description.hasSuffix("or leave those arguments out.") == true)
        #expect(!ran)
        let value = try await withStubScope(cassette: missing, seed: 3) { scope in
            await scope.stub(.get("https://api.example.com/plain"), with: .text("ok"))
            return String(decoding: try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/plain")!).0, as: UTF8.self)
        }
        #expect(value == "ok")
    }

    @Test("options without any cassette field open the scope as usual")
    func noCassetteFieldsIsNoMistake() async throws {
        let value = try await withStubScope(StubScopeOptions(name: "plain", seed: 9)) { scope in
            await scope.stub(.get("https://api.example.com/plain"), with: .text("ok"))
            return String(decoding: try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/plain")!).0, as: UTF8.self)
        }
        #expect(value == "ok")
    }

    @Test("under a trait, a cassette's mode without a cassette is no mistake: the test runs in its scope", .stubbed(StubScopeOptions(cassetteMode: .record)))
    func traitModeWithoutCassette() async throws {
        let scope = StubScope.currentTest()
        await scope.stub(.get("https://api.example.com/trait"), with: .text("ok"))
        let body = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/trait")!).0
        #expect(String(decoding: body, as: UTF8.self) == "ok")
    }
}

@Suite("Under @Suite(.stubbed), a test's .stubbed options apply", .timeLimit(.minutes(1)), .stubbed)
struct StubbedSuiteWithTestOptionsTests {
    @Test("a test's .stubbed(clock:) under a plain suite trait times the test's scope", .stubbed(clock: { ManualClock() }))
    func testClockUnderSuiteTrait() async throws {
        let scope = StubScope.currentTest()
        let clock = try #require(await scope.clock as? ManualClock)
        await scope.stub(.get("https://api.example.com/late"), with: .text("late").delayed(by: .seconds(5)))
        let late = Task { try await getText("https://api.example.com/late") }
        try await clock.waitForSleepers(atLeast: 1, timeout: .patience)
        await clock.advance(by: .seconds(5))
        #expect(try await late.value == "late")
    }

    @Test("a test without options of its own gets the continuous clock")
    func noOptions() async throws {
        #expect(await StubScope.currentTest().clock is ContinuousClock)
    }

    @Test("of two traits on one test the later wins field by field: its clock, the earlier one's seed",
          .stubbed(StubScopeOptions(clock: { ManualClock() }, seed: 5)),
          .stubbed(StubScopeOptions(clock: { ContinuousClock() })))
    func twoTraitsOnOneTest() async throws {
        let scope = StubScope.currentTest()
        #expect(await scope.clock is ContinuousClock)
        await scope.injectFaults(rate: 0)
        #expect(await scope.seed == 5)
    }

    @Test("two traits in the other order: the later one's clock",
          .stubbed(StubScopeOptions(clock: { ContinuousClock() })),
          .stubbed(clock: { ManualClock() }))
    func twoTraitsReversed() async throws {
        #expect(await hasManualClock(StubScope.currentTest()))
    }
}

@Suite("A suite's cassette and a test's clock both apply", .timeLimit(.minutes(1)), .stubbed(cassette: .named("shared-config", in: cassettes), matching: .standard))
struct StubbedSuiteCassetteTests {
    @Test("the suite's cassette answers and the test's clock times the scope", .stubbed(clock: { ManualClock() }))
    func suiteCassetteTestClock() async throws {
        #expect(await hasManualClock(StubScope.currentTest()))
        #expect(try await getText("https://cassette.example.com/config") == #"{"theme":"dark","x":1}"#)
    }

    @Test("a test's cassette replaces the suite's, and keeps the suite's fields it does not set",
          .stubbed(StubScopeOptions(cassette: .named("jsonrpc-trait", in: cassettes), cassetteMatching: .jsonRPC)))
    func testCassetteWins() async throws {
        let answer = try await ping(id: 7)
        #expect(answer == #"{"id":7,"jsonrpc":"2.0","result":{}}"#)
    }
}
