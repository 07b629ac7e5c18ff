#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubsTesting

@Suite("The .stubbed trait on a test", .timeLimit(.minutes(1)))
struct StubbedTestTraitTests {
    @Test("a test under .stubbed runs in a fresh scope that StubScope.currentTest() returns", .stubbed)
    func testRunsInAScope() async throws {
        let scope = StubScope.currentTest()
        #expect(StubScope.current == scope)
        #expect(await scope.requests.isEmpty)
        await scope.stub(.get("https://api.example.com/users/5"), with: .json(UserClient.User(id: 5, name: "Eve")))
        #expect(try await UserClient().user(id: 5) == UserClient.User(id: 5, name: "Eve"))
    }

    @Test("each argument of a parameterized test under .stubbed gets its own scope", .stubbed, arguments: 0..<12)
    func eachArgumentHasItsOwnScope(index: Int) async throws {
        let scope = StubScope.currentTest()
        await scope.stub(.get("https://api.example.com/same"), with: .text("case \(index)"))
        #expect(try await getText("https://api.example.com/same") == "case \(index)")
        #expect(await scope.requests.count == 1)
    }

    @Test("withStubScope inside a test under .stubbed is nested: it sees the trait's stubs and its own win", .stubbed)
    func withStubScopeNestsInsideTheTrait() async throws {
        let traitScope = StubScope.currentTest()
        await traitScope.stub(.get("https://api.example.com/a"), with: .text("trait a"))
        await traitScope.stub(.get("https://api.example.com/b"), with: .text("trait b"))
        try await withStubScope { inner in
            #expect(inner != traitScope)
            await inner.stub(.get("https://api.example.com/b"), with: .text("inner b"))
            let a = try await getText("https://api.example.com/a")
            let b = try await getText("https://api.example.com/b")
            #expect(a == "trait a")
            #expect(b == "inner b")
        }
        #expect(try await getText("https://api.example.com/b") == "trait b")
    }

    @Test("the test's scope answers directly, with the trait's baseline stubs, and its log shows the request", .stubbed { scope in
        await scope.stub(.get("https://api.example.com/users/{id}"), with: .json(UserClient.User(id: 3, name: "Baseline")))
    })
    func currentTestAnswersDirectly() async throws {
        let scope = StubScope.currentTest()
        let (data, response) = try await scope.data(from: URL(string: "https://api.example.com/users/3")!)
        #expect(HTTPURLResponse.status(of: response) == 200)
        #expect(try JSONDecoder().decode(UserClient.User.self, from: data) == UserClient.User(id: 3, name: "Baseline"))
        #expect(await scope.requests.map(\.pathParameters) == [["id": "3"]])
    }

    @Test("StubScope.currentTest() outside any scope records an issue that says how to open one")
    func currentTestOutsideAScope() async throws {
        await withKnownIssue {
            let scope = StubScope.currentTest()
            #expect(await scope.isOpen == false)
            await scope.stub(.get("https://api.example.com/ignored"), with: .status(200))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("StubScope.currentTest() was used where no stub scope is open: add the .stubbed trait") }
        }
    }

    @Test("a test under .stubbed(clock:) has its scope timed by the clock the trait made for it", .stubbed(clock: { ManualClock() }))
    func traitClock() async throws {
        let scope = StubScope.currentTest()
        let clock = try #require(await scope.clock as? ManualClock)
        let url = URL(string: "https://api.example.com/late")!
        await scope.stub(.get(url), with: .text("late").delayed(by: .seconds(5)))
        let loading = Task { try await URLSession.stubbed.data(from: url) }
        try await clock.waitForSleepers(atLeast: 1)
        await clock.advance(by: .seconds(5))
        #expect(try await loading.value.0 == Data("late".utf8))
    }
}

@Suite("The .stubbed trait on a suite", .timeLimit(.minutes(1)), .stubbed { scope in
    await scope.stub(.get("https://api.example.com/config"), with: .text("baseline config"))
    await scope.stub(.get("https://api.example.com/flags"), with: .text("baseline flags"))
    await scope.stub(.get("https://api.example.com/which-scope"), with: .text(scope.description))
})
struct StubbedSuiteTraitTests {
    @Test("every parameterized case sees the suite's baseline and only its own stubs", arguments: 0..<16)
    func baselineAndOwnStubs(index: Int) async throws {
        let scope = StubScope.currentTest()
        await scope.stub(.get("https://api.example.com/flags"), with: .text("flags of case \(index)"))
        #expect(try await getText("https://api.example.com/config") == "baseline config")
        #expect(try await getText("https://api.example.com/flags") == "flags of case \(index)")
        #expect(await scope.requests.count == 2)
    }

    @Test("a test trait inside a suite trait adds its stubs to the same single scope", .stubbed { scope in
        await scope.stub(.get("https://api.example.com/config"), with: .text("test config"))
    })
    func testTraitInsideSuiteTrait() async throws {
        #expect(try await getText("https://api.example.com/config") == "test config")
        #expect(try await getText("https://api.example.com/flags") == "baseline flags")
        #expect(try await getText("https://api.example.com/which-scope") == StubScope.currentTest().description)
    }

    @Test("tests of the suite run in different scopes")
    func differentScopes() async throws {
        #expect(try await getText("https://api.example.com/which-scope") == StubScope.currentTest().description)
    }
}
