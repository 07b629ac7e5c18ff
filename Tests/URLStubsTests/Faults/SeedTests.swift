#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Where a scope's seed comes from, and the line that names it in every failure
/// message of the scope.
@Suite("Seeds", .timeLimit(.minutes(1)))
struct SeedTests {
    private static let note = "Faults seeded with 1234 (replay with URLSTUBS_SEED=1234)."

    @Test(
        "the seed ends every failure message of a seeded scope, once: the unmatched request's error and each problem thrown when the scope ends",
        .enabled(if: seedsAreChosenByTests, "URLSTUBS_SEED overrides the seed this test chooses")
    )
    func seedInEveryFailureMessage() async throws {
        let onceLine = #line + 5
        let unmatched = Shared<URLError?>(nil)
        let forbidden = Shared<URLError?>(nil)
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope("seeded") { scope in
                await scope.stub(.get("https://seed.example.com/once"), with: .status(200), times: .once)
                await scope.stub(.get("https://seed.example.com/never"), with: .status(200), times: .never)
                await scope.injectFaults(rate: 0, seed: 1234)
                unmatched.value = await thrownError(URLError.self) {
                    _ = try await URLSession.stubbed.data(from: URL(string: "https://seed.example.com/unknown")!)
                }
                forbidden.value = await thrownError(URLError.self) {
                    _ = try await URLSession.stubbed.data(from: URL(string: "https://seed.example.com/never")!)
                }
            }
        }
        let messages = error?.problems.map(\.message) ?? []
        #expect(messages.count == 3)
        #expect(messages.allSatisfy { $0.hasSuffix("\n" + Self.note) && $0.components(separatedBy: Self.note).count == 2 })
        #expect(unmatched.value?.localizedDescription == messages.first)
        #expect(forbidden.value?.localizedDescription.hasSuffix("which expects no requests.\n" + Self.note) == true)
        #expect(messages.dropFirst().map { $0.replacingOccurrences(of: "\n" + Self.note, with: "") } == [
            "The stub GET https://seed.example.com/once expected exactly 1 request but was requested 0 times.",
            "The stub GET https://seed.example.com/never expected no requests but was requested 1 time.",
        ])
        #expect(error?.problems.map { $0.location?.line } == [error?.problems.first?.location?.line, onceLine, onceLine + 1])
        #expect(error.map { $0.description.components(separatedBy: Self.note).count - 1 } == 3)
    }

    @Test(
        "the seed line names what is seeded and where the seed came from",
        .enabled(if: seedsAreChosenByTests, "URLSTUBS_SEED overrides the seeds this test chooses")
    )
    func seedLines() async throws {
        /// The last `count` lines of the message of a request no stub answers in `scope`.
        func lastLine(in scope: StubScope, count: Int = 1) async -> String {
            let error = await thrownError(URLError.self) { _ = try await scope.data(from: URL(string: "https://seed.example.com/none")!) }
            let lines = error?.localizedDescription.split(separator: "\n").suffix(count) ?? []
            return masked(lines.joined(separator: "\n"))
        }
        _ = try await problemMessages { scope in
            await scope.shuffleResponseOrder(seed: 9)
            #expect(await lastLine(in: scope) == "Response order seeded with 9 (replay with URLSTUBS_SEED=9).")
            await scope.injectFaults(rate: 0.1)
            #expect(await lastLine(in: scope) == "Faults and response order seeded with 9 (replay with URLSTUBS_SEED=9).")
        }
        _ = try await problemMessages { outer in
            await outer.injectFaults(rate: 0.1)
            let seed = try #require(await outer.seed)
            #expect(await lastLine(in: outer) == "Faults seeded with \(seed), drawn at random (replay with URLSTUBS_SEED=\(seed)).")
            _ = try await problemMessages { inner in
                await inner.shuffleResponseOrder()
                #expect(await inner.seed == seed)
                // The request was made in both scopes: each seeded one says what it seeds.
                #expect(await lastLine(in: inner, count: 2) == """
                    Response order seeded with \(seed), the seed of the enclosing scope #N (replay with URLSTUBS_SEED=\(seed)).
                    Faults seeded with \(seed), drawn at random (replay with URLSTUBS_SEED=\(seed)).
                    """)
            }
        }
    }

    @Test("URLSTUBS_SEED overrides a call's seed, names itself in the seed line, and replays the run whose seed it is")
    func environmentReplays() async throws {
        let urls = (0..<40).map { "https://seed.example.com/items/\($0)" }
        let rule = { (location: StubSourceLocation) in
            FaultRule(pattern: .anyRequest, rate: 0.5, faults: [.serviceUnavailable, .timedOut], latency: .zero, location: location)
        }
        let here = StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
        let original = try await withStubScope { scope in
            await scope.stub(.get("https://seed.example.com/**"), with: .status(200))
            StubRegistry.shared.add(.faults(rule(here)), seed: 31_337, to: scope, environment: .unset)
            var outcomes: [String] = []
            for url in urls { outcomes.append(await outcome(of: url)) }
            return outcomes
        }
        var replayed: [String] = []
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get("https://seed.example.com/**"), with: .status(200))
                StubRegistry.shared.add(.faults(rule(here)), seed: 1, to: scope, environment: .seed(31_337))
                #expect(await scope.seed == 31_337)
                for url in urls { replayed.append(await outcome(of: url)) }
                _ = try? await scope.data(from: URL(string: "https://elsewhere.example.com/")!)
            }
        }
        #expect(error?.problems.count == 1)
        #expect(error?.problems.first?.message.hasSuffix("\nFaults seeded with 31337 from URLSTUBS_SEED (replay with URLSTUBS_SEED=31337).") == true)
        #expect(replayed == original)
        #expect(Set(original).count == 3)
    }

    @Test("an URLSTUBS_SEED that is not a seed is a problem of the scope at the call's line, and the scope takes the call's seed instead")
    func unreadableEnvironment() async throws {
        let call = StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                let rule = ResponseOrderRule(pattern: .anyRequest, spacing: .milliseconds(1), positions: 4, location: call)
                StubRegistry.shared.add(.order(rule), seed: 5, to: scope, environment: .invalid("12ab"))
                #expect(await scope.seed == 5)
            }
        }
        #expect(error?.problems.map(\.message) == ["""
            The response order shuffle for every request could not be seeded as asked: URLSTUBS_SEED="12ab" is not a seed (a whole number from 0 to 18446744073709551615), so this scope was seeded with 5 instead.
            Response order seeded with 5 (replay with URLSTUBS_SEED=5).
            """])
        #expect(error?.problems.map(\.location) == [call])
    }

    @Test("URLSTUBS_SEED is read as a decimal number from 0 to 2^64 - 1, white space around it ignored; unset or blank leaves seeds to the calls; anything else is refused, never a crash", arguments: [
        (String?.none, FaultSeed.Setting.unset),
        ("", .unset),
        ("  \n", .unset),
        ("1234", .seed(1234)),
        (" 42\n", .seed(42)),
        ("0", .seed(0)),
        ("18446744073709551615", .seed(.max)),
        ("18446744073709551616", .invalid("18446744073709551616")),
        ("-1", .invalid("-1")),
        ("+5", .invalid("+5")),
        ("0x10", .invalid("0x10")),
        ("12ab", .invalid("12ab")),
        ("1 2", .invalid("1 2")),
        ("٣", .invalid("٣")),
    ])
    func parsing(text: String?, expected: FaultSeed.Setting) {
        #expect(FaultSeed.parse(text) == expected)
    }

    @Test(
        "a scope has no seed until its first faults or shuffle call, and a nested scope given no seed takes its enclosing scope's",
        .enabled(if: environmentSeedIsReadable, "an unreadable URLSTUBS_SEED is a problem of every seeded scope")
    )
    func inheritance() async throws {
        try await withStubScope { outer in
            #expect(await outer.seed == nil)
            await outer.injectFaults(rate: 0)
            let seed = await outer.seed
            #expect(seed != nil)
            try await withStubScope { inner in
                #expect(await inner.seed == nil)
                await inner.shuffleResponseOrder()
                #expect(await inner.seed == seed)
            }
        }
    }

    @Test(
        "a nested scope given no seed takes the seed its enclosing scope's options give, before that scope made any faults or shuffle call",
        .enabled(if: seedsAreChosenByTests, "URLSTUBS_SEED overrides the seed this test chooses")
    )
    func inheritanceOfAnOptionsSeed() async throws {
        try await withStubScope(StubScopeOptions(seed: 42)) { outer in
            try await withStubScope { inner in
                await inner.injectFaults(rate: 0)
                #expect(await inner.seed == 42)
            }
            #expect(await outer.seed == nil)
        }
    }

    @Test(
        "a seed that disagrees with the scope's seed is reported at its call's line; the scope keeps its one seed",
        .enabled(if: environmentSeedIsReadable, "an unreadable URLSTUBS_SEED is a problem of every seeded scope")
    )
    func conflictingSeeds() async throws {
        let first = #line + 3
        let explicitSeeds = Shared<UInt64?>(nil)
        let explicit = try await problemMessages { scope in
            await scope.injectFaults(rate: 0, seed: 1)
            await scope.injectFaults(rate: 0, seed: 2)
            await scope.injectFaults(rate: 0, seed: 1)
            explicitSeeds.value = await scope.seed
        }
        #expect(explicit.map { String($0.prefix { $0 != "\n" }) } == [
            "The faults for every request could not be seeded as asked: seed 2 differs from the seed 1 given at URLStubsTests/SeedTests.swift:\(first); a scope has one seed, fixed by its first faults or shuffle call.",
        ])
        #expect(explicitSeeds.value != nil)
        let unseeded = #line + 3
        let lateSeeds = Shared<UInt64?>(nil)
        let late = try await problemMessages { scope in
            await scope.shuffleResponseOrder()
            await scope.shuffleResponseOrder(seed: 3)
            lateSeeds.value = await scope.seed
        }
        let seed = lateSeeds.value ?? 0
        #expect(late.map { String($0.prefix { $0 != "\n" }) } == [
            "The response order shuffle for every request could not be seeded as asked: seed 3 comes after the call at URLStubsTests/SeedTests.swift:\(unseeded), which seeded the scope with \(seed); a scope has one seed, so pass it to the scope's first faults or shuffle call.",
        ])
    }

    /// The error a client throws when it gives up.
    struct GaveUp: Error, Equatable {}

    @Test(
        "a seeded scope whose body throws with no problem of its own throws an error that carries the body's error and names the seed and its replay command",
        .enabled(if: seedsAreChosenByTests, "URLSTUBS_SEED overrides the seed this test chooses")
    )
    func seedWhenTheBodyThrows() async throws {
        let line = #line + 2
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get("https://seed.example.com/flaky"), with: .status(200))
                await scope.injectFaults(rate: 1, faults: [.error(.networkConnectionLost)], seed: 1234)
                for _ in 1...3 {
                    if (try? await URLSession.stubbed.data(from: URL(string: "https://seed.example.com/flaky")!)) != nil { return }
                }
                throw GaveUp()
            }
        }
        #expect(error?.bodyError as? GaveUp == GaveUp())
        #expect(error?.problems.isEmpty == true)
        #expect(error?.scopeTitle.hasSuffix("(opened at URLStubsTests/SeedTests.swift:\(line))") == true)
        #expect(error?.description == "URLStubs: the body of \(error?.scopeTitle ?? "") threw URLStubsTests.SeedTests.GaveUp().\n\(Self.note)")
    }
}
