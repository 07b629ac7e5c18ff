#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

// Blocks of the DocC articles (once README's), compiled and run. Each sits between
// `// snippet: NAME` and `// end snippet` and must stay identical to the documents'
// blocks marked `<!-- snippet: NAME -->` (checked by DocumentationExamplesTests).
// The names they use are defined here.

// MARK: - What the snippets use

private let orders = ["order 1", "order 2"]
private let client = OrdersClient()

/// A client that retries transient failures (timeouts, lost connections, 429, 503)
/// at once, up to ten attempts.
private struct OrdersClient {
    func ordersRetryingTransientFailures() async throws -> [String] {
        var lastError: (any Error)?
        for _ in 0..<10 {
            do {
                let (data, response) = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/orders")!)
                guard let status = (response as? HTTPURLResponse)?.statusCode, status != 429, status != 503 else { continue }
                return try JSONDecoder().decode([String].self, from: data)
            } catch let error as URLError where [.timedOut, .networkConnectionLost].contains(error.code) {
                lastError = error
            }
        }
        throw lastError ?? URLError(.badServerResponse)
    }
}

private let feed = ["post 1", "post 2"]
private let feedURL = URL(string: "https://api.example.com/feed")!

/// A client that retries a 503 after 1, 2, 4… seconds on its clock.
private struct FeedClient {
    let session: URLSession
    let clock: any Clock<Duration>

    func load() async throws -> [String] {
        var backoff = Duration.seconds(1)
        while true {
            let (data, response) = try await session.data(from: feedURL)
            if (response as? HTTPURLResponse)?.statusCode != 503 {
                return try JSONDecoder().decode([String].self, from: data)
            }
            try await clock.sleep(for: backoff)
            backoff *= 2
        }
    }
}

private typealias User = UserClient.User

private let user = User(id: 1, name: "Ada")
private let news = ["news 1", "news 2", "news 3"]

/// What the dashboard shows.
private struct Dashboard: Equatable {
    var user: User
    var orders: [String]
    var news: [String]
}

/// Loads the dashboard's three resources at once, keeping each answer with its
/// request (the order they arrive in does not matter).
private struct DashboardLoader {
    let session: URLSession

    func load() async throws -> Dashboard {
        async let user = get(User.self, at: "user")
        async let orders = get([String].self, at: "orders")
        async let news = get([String].self, at: "news")
        return try await Dashboard(user: user, orders: orders, news: news)
    }

    private func get<Value: Decodable>(_ type: Value.Type, at path: String) async throws -> Value {
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/\(path)")!)
        return try JSONDecoder().decode(type, from: data)
    }
}

// MARK: - The snippets

// snippet: seeded-faults
@Test func ordersSurviveAFlakyNetwork() async throws {
    try await withStubScope { scope in
        await scope.stub(.get("https://api.example.com/orders"), with: .json(orders))
        // 30% of requests fail: a timeout, a lost connection, 503, or 429 with Retry-After: 1.
        await scope.injectFaults(rate: 0.3, latency: .logNormal(median: .milliseconds(20), sigma: 0.5))
        for _ in 0..<20 {
            let fetched = try await client.ordersRetryingTransientFailures()
            #expect(fetched == orders)
        }
    }
}
// end snippet

// snippet: response-order
@Test(arguments: (0..<20).map(UInt64.init))
func dashboardDoesNotDependOnResponseOrder(seed: UInt64) async throws {
    try await withStubScope { scope in
        await scope.stub(.get("https://api.example.com/user"), with: .json(user))
        await scope.stub(.get("https://api.example.com/orders"), with: .json(orders))
        await scope.stub(.get("https://api.example.com/news"), with: .json(news))
        await scope.shuffleResponseOrder(seed: seed)
        let dashboard = try await DashboardLoader(session: .stubbed).load()
        #expect(dashboard == Dashboard(user: user, orders: orders, news: news))
    }
}
// end snippet

// snippet: manual-clock
@Test func retriesAfterBackoff() async throws {
    let clock = ManualClock()
    try await withStubScope(clock: clock) { scope in
        await scope.stub(.get("https://api.example.com/feed"),
                         with: .sequence([.status(503), .status(503), .json(feed)]))
        let loading = Task { try await FeedClient(session: .stubbed, clock: clock).load() }
        try await clock.waitForSleepers(atLeast: 1)   // the client sleeps its first backoff
        await clock.advance(by: .seconds(1))
        try await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(2))
        #expect(try await loading.value == feed)
        #expect(await scope.exchanges.map(\.startedAt) == [.zero, .seconds(1), .seconds(3)])
    }
}

@Test func timesOut() async throws {
    let clock = ManualClock()
    try await withStubScope(clock: clock) { scope in
        await scope.stub(.get("https://api.example.com/feed"), with: .noResponse)
        let loading = Task { try await URLSession.stubbed.data(from: feedURL) }   // timeoutInterval 60 s
        try await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(60))
        // The URLError carries a message and the URL: match its code, not the whole error.
        let error = await #expect(throws: URLError.self) { try await loading.value }
        #expect(error?.code == .timedOut)
    }
}
// end snippet

// snippet: trait
import Testing
import URLStubsTesting

@Suite(.stubbed { scope in
    // A baseline every test case of the suite gets, in its own scope.
    await scope.stub(.get("https://api.example.com/config"), with: .json(["theme": "dark"]))
})
struct UserClientTests {
    @Test(arguments: 1...40)
    func fetchesEachUser(id: Int) async throws {
        let scope = StubScope.currentTest()
        await scope.stub(.get("https://api.example.com/users/\(id)"), with: .json(User(id: id, name: "User \(id)")), times: .once)
        #expect(try await UserClient(session: .stubbed).user(id: id).id == id)
    }

    @Test func readsTheBaselineConfig() async throws {   // a baseline no test used is reported
        let (data, _) = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/config")!)
        #expect(try JSONDecoder().decode([String: String].self, from: data) == ["theme": "dark"])
    }
}
// end snippet

// snippet: scenarios
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs

@Test func fillsACart() async throws {
    try await withStubScope { scope in
        let cart = await scope.scenario("cart", startingIn: "empty")
        await scope.stub(.get("https://shop.example/cart"), with: .json(["items": 0]), when: cart.is("empty"))
        await scope.stub(.post("https://shop.example/cart/items"), with: .status(201),
                         when: cart.is("empty"), then: cart.transition(to: "filled"))
        await scope.stub(.get("https://shop.example/cart"), with: .json(["items": 1]), when: cart.is("filled"))

        var add = URLRequest(url: URL(string: "https://shop.example/cart/items")!)
        add.httpMethod = "POST"
        _ = try await URLSession.stubbed.data(for: add)
        let (data, _) = try await URLSession.stubbed.data(from: URL(string: "https://shop.example/cart")!)

        #expect(try JSONDecoder().decode([String: Int].self, from: data) == ["items": 1])
        #expect(await cart.state == "filled")
        await cart.move(to: "empty")   // or set the state from the test
    }
}
// end snippet

// snippet: xctest
import XCTest
import URLStubsTesting

final class UserClientXCTests: StubbedTestCase {
    func testFetchesAUser() async throws {
        await stubScope.stub(.get("https://api.example.com/users/1"), with: .json(User(id: 1, name: "Ada")))
        let user = try await UserClient(session: .stubbed).user(id: 1)
        XCTAssertEqual(user.id, 1)
    }
}
// end snippet

// MARK: - The minimal HAR file

/// The HAR file of the Recording article's minimal-har block (shown there verbatim).
private let minimalHAR = #"""
{"log": {"entries": [
  {"request": {"method": "GET", "url": "https://api.example.com/users/1"},
   "response": {"status": 200, "content": {"text": "{\"id\":1}"}}}
]}}
"""#

@Suite("The articles' examples", .timeLimit(.minutes(1)))
struct ReadmeExamplesTests {
    @Test("a HAR file with only the fields the Recording article names replays: its body, as text or base64, with its status")
    func minimalHARReplays() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("minimal.har")
        try Data(minimalHAR.utf8).write(to: file)
        let base64 = directory.appendingPathComponent("base64.har")
        try Data(#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://api.example.com/bytes"}, "response": {"status": 201, "content": {"text": "AAEC", "encoding": "base64"}}}]}}"#.utf8).write(to: base64)
        try await withStubScope { scope in
            try await scope.replay(har: file)
            try await scope.replay(har: base64)
            let (data, response) = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/users/1")!)
            #expect(String(decoding: data, as: UTF8.self) == #"{"id":1}"#)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let (bytes, second) = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/bytes")!)
            #expect(bytes == Data([0, 1, 2]))
            #expect((second as? HTTPURLResponse)?.statusCode == 201)
        }
    }
}
