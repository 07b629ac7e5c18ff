#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Which requests a scope's faults and response order reach: not those sent to the
/// network, the nearest scope's call deciding, and a shuffle's hold added to a
/// stub's own delay (FaultsAndOrdering.md).
@Suite("Faults and response order: which requests they reach", .timeLimit(.minutes(1)))
struct FaultScopeTests {
    @Test("a request sent to the network by a passthrough is left alone by faults at a rate of 1: the server answers it")
    func passThroughIsLeftAlone() async throws {
        let server = try LocalServer { _ in .text("from server") }
        defer { server.stop() }
        try await withStubScope { scope in
            await scope.passThrough(.host("127.0.0.1"))
            await scope.injectFaults(rate: 1, faults: [.serviceUnavailable], seed: 1)
            let (data, response) = try await URLSession.stubbed.data(from: server.url("/x"))
            #expect(HTTPURLResponse.status(of: response) == 200)
            #expect(String(decoding: data, as: UTF8.self) == "from server")
            #expect(server.requests.map(\.path) == ["/x"])
        }
    }

    @Test("the nearest scope's call decides, even when an enclosing scope called later; an enclosing scope's call alone reaches a nested scope's requests")
    func nearestScopeDecides() async throws {
        let url = "https://faults.example.com/x"
        var results: [String] = []
        try await withStubScope { outer in
            await outer.stub(.get(url), with: .text("ok"))
            try await withStubScope { inner in
                await inner.injectFaults(rate: 0, seed: 1)
                await outer.injectFaults(rate: 1, faults: [.serviceUnavailable]) // Newer, but farther.
                results.append(await outcome(of: url))
            }
        }
        try await withStubScope { outer in
            await outer.stub(.get(url), with: .text("ok"))
            try await withStubScope { inner in
                await inner.injectFaults(rate: 1, faults: [.serviceUnavailable], seed: 1)
                await outer.injectFaults(rate: 0) // Newer, but farther.
                results.append(await outcome(of: url))
            }
        }
        try await withStubScope { outer in
            await outer.stub(.get(url), with: .text("ok"))
            await outer.injectFaults(rate: 1, faults: [.serviceUnavailable], seed: 1)
            try await withStubScope { _ in
                results.append(await outcome(of: url))
            }
        }
        #expect(results == ["200", "503", "503"])
    }

    @Test("a shuffled answer is held position × spacing on top of its stub's own delay: at position 7 of the default 10 ms, a 50 ms delay ends at 120 ms, not before")
    func holdAddsToADelay() async throws {
        let url = "https://order.example.com/last"
        let seed = try #require((UInt64(0)..<1_000).first { orderPosition(of: url, seed: $0, positions: 8) == 7 })
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(url), with: .text("held").delayed(by: .milliseconds(50)))
            await scope.shuffleResponseOrder(seed: seed)
            let answer = Task { try await getText(url) }
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .milliseconds(50))
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .milliseconds(69))
            #expect(await scope.exchanges.first?.endedAt == nil) // Still held at 119 ms.
            await clock.advance(by: .milliseconds(1))
            #expect(try await answer.value == "held")
            #expect(await scope.exchanges.first?.endedAt == .milliseconds(120))
        }
    }

    @Test("two requests given the same position are released in the order they arrived, whichever comes first")
    func samePositionKeepsArrivalOrder() async throws {
        let a = "https://order.example.com/a", b = "https://order.example.com/b"
        let seed = try #require((UInt64(0)..<1_000).first {
            orderPosition(of: a, seed: $0, positions: 2) == 1 && orderPosition(of: b, seed: $0, positions: 2) == 1
        })
        var orders: [[String]] = []
        for first in [a, b] {
            let second = first == a ? b : a
            // A manual clock: the requests arrive 50 ms apart and are held 200 ms each,
            // exactly, however long a loaded machine holds a thread back.
            let clock = ManualClock()
            let order = try await withStubScope(clock: clock) { scope in
                await scope.stub(.get("https://order.example.com/{p}")) { .text($0.pathParameters["p"] ?? "") }
                await scope.shuffleResponseOrder(spacing: .milliseconds(200), positions: 2, seed: seed)
                let one = Task { try await getText(first) }
                try await clock.waitForSleepers(atLeast: 1, timeout: .patience)
                await clock.advance(by: .milliseconds(50))
                let two = Task { try await getText(second) }
                try await clock.waitForSleepers(atLeast: 2, timeout: .patience)
                await clock.advance(by: .milliseconds(150))
                _ = try await one.value
                await clock.advance(by: .milliseconds(50))
                _ = try await two.value
                // The order they were answered in, by the scope's clock.
                let exchanges = await scope.exchanges
                #expect(exchanges.compactMap(\.endedAt).sorted() == [.milliseconds(200), .milliseconds(250)])
                return exchanges.sorted { ($0.endedAt ?? .zero) < ($1.endedAt ?? .zero) }.map { $0.request.url.lastPathComponent }
            }
            orders.append(order)
        }
        #expect(orders == [["a", "b"], ["b", "a"]])
    }

    @Test("a shuffle limited by a pattern holds only the requests it matches: another host's request is answered at once, whatever its position would be")
    func patternLimitsTheShuffle() async throws {
        let held = "https://held.example.com/x", free = "https://free.example.com/x"
        let seed = try #require((UInt64(0)..<1_000).first {
            orderPosition(of: held, seed: $0, positions: 8) == 7 && orderPosition(of: free, seed: $0, positions: 8) == 7
        })
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get(held), with: .text("held"))
            await scope.stub(.get(free), with: .text("free"))
            await scope.shuffleResponseOrder(.host("held.example.com"), seed: seed)
            #expect(try await getText(free) == "free") // No clock advanced: not held.
            let answer = Task { try await getText(held) }
            try await clock.waitForSleepers(atLeast: 1)
            await clock.advance(by: .milliseconds(70))
            #expect(try await answer.value == "held")
            #expect(await scope.exchanges.map(\.endedAt) == [.zero, .milliseconds(70)])
        }
    }

    @Test("requests made together with distinct positions are released spacing apart: each at its position × spacing")
    func distinctPositionsAreSpacingApart() async throws {
        let urls = (0..<40).map { "https://order.example.com/items/\($0)" }
        let seed: UInt64 = 11
        let positions = urls.map { orderPosition(of: $0, seed: seed, positions: 8) }
        // Two requests of different positions.
        let first = try #require(urls.indices.first { positions[$0] == 2 })
        let second = try #require(urls.indices.first { positions[$0] == 5 })
        let clock = ManualClock()
        try await withStubScope(clock: clock) { scope in
            await scope.stub(.get("https://order.example.com/items/{id}"), with: .text("ok"))
            await scope.shuffleResponseOrder(spacing: .milliseconds(30), seed: seed)
            let one = Task { try await getText(urls[first]) }
            let two = Task { try await getText(urls[second]) }
            try await clock.waitForSleepers(atLeast: 2, timeout: .patience)
            await clock.advance(by: .milliseconds(150))
            _ = try await one.value
            _ = try await two.value
            let ended = await Dictionary(uniqueKeysWithValues: scope.exchanges.map { ($0.request.url.absoluteString, $0.endedAt) })
            #expect(ended[urls[first]] == .some(.milliseconds(60)))
            #expect(ended[urls[second]] == .some(.milliseconds(150)))
        }
    }
}
