#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Scenarios", .timeLimit(.minutes(1)))
struct ScenarioTests {
    private static let file = "URLStubsTests/ScenarioTests.swift"
    private static let cart = "https://shop.example/cart"
    private static let items = "https://shop.example/cart/items"
    private static let checkout = "https://shop.example/cart/checkout"

    /// Sends `method` to `url` through `session`; returns the status and the body
    /// as text, or the error's description as the body with status -1.
    private func send(_ method: String, _ url: String, through session: URLSession = .stubbed) async -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        do {
            let (data, response) = try await session.data(for: request)
            return (HTTPURLResponse.status(of: response), String(decoding: data, as: UTF8.self))
        } catch {
            return (-1, error.localizedDescription)
        }
    }

    /// Runs `body` in a scope named `name` and returns the messages of the
    /// problems the scope ended with.
    private func problems(_ name: String? = nil, _ body: (StubScope) async throws -> Void) async throws -> [String] {
        do {
            try await withStubScope(name) { try await body($0) }
            return []
        } catch let error as StubVerificationError {
            return error.problems.map { masked($0.message) }
        }
    }

    // MARK: - Following a scenario

    @Test("a cart goes from empty to filled to paid through a URLSession, and each state answers the cart with its own body")
    func cartFlow() async throws {
        try await withStubScope("cart") { scope in
            let cart = await scope.scenario("cart", startingIn: "empty")
            await scope.stub(.get(Self.cart), with: .text("no items"), when: cart.is("empty"))
            await scope.stub(.post(Self.items), with: .status(201), when: cart.is("empty"), then: cart.transition(to: "filled"))
            await scope.stub(.get(Self.cart), with: .text("1 item"), when: cart.is("filled"))
            await scope.stub(.post(Self.checkout), with: .text("receipt"), when: cart.is("filled"), then: cart.transition(to: "paid"))
            await scope.stub(.get(Self.cart), with: .text("1 item, paid"), when: cart.is("paid"))
            let session = URLSession(configuration: .stubbed)
            defer { session.finishTasksAndInvalidate() }

            #expect(await cart.state == "empty")
            #expect(await send("GET", Self.cart, through: session) == (200, "no items"))
            #expect(await send("POST", Self.items, through: session) == (201, ""))
            #expect(await cart.state == "filled")
            #expect(await send("GET", Self.cart, through: session) == (200, "1 item"))
            #expect(await send("POST", Self.checkout, through: session) == (200, "receipt"))
            #expect(await cart.state == "paid")
            #expect(await send("GET", Self.cart, through: session) == (200, "1 item, paid"))
            #expect(await scope.requests.map { "\($0.method) \($0.url.path)" } == [
                "GET /cart", "POST /cart/items", "GET /cart", "POST /cart/checkout", "GET /cart",
            ])
        }
    }

    @Test("a stub whose scenario is in another state does not match, and the next-newest stub answers instead")
    func otherStateFallsThrough() async throws {
        try await withStubScope { scope in
            let cart = await scope.scenario("cart", startingIn: "empty")
            let fallback = await scope.stub(.get(Self.cart), with: .text("any state"))
            let filled = await scope.stub(.get(Self.cart), with: .text("filled"), when: cart.is("filled"))

            #expect(await send("GET", Self.cart) == (200, "any state"))
            await cart.move(to: "filled")
            #expect(await send("GET", Self.cart) == (200, "filled"))
            await cart.move(to: "paid")
            #expect(await send("GET", Self.cart) == (200, "any state"))
            #expect(await fallback.hitCount == 2)
            #expect(await filled.hitCount == 1)
        }
    }

    @Test("a stub without a condition may move a scenario whatever its state")
    func transitionWithoutCondition() async throws {
        try await withStubScope { scope in
            let cart = await scope.scenario("cart", startingIn: "paid")
            await scope.stub(.delete(Self.cart), with: .status(204), then: cart.transition(to: "empty"))
            await scope.stub(.get(Self.cart), with: .text("no items"), when: cart.is("empty"))

            #expect(await send("DELETE", Self.cart) == (204, ""))
            #expect(await cart.state == "empty")
            #expect(await send("GET", Self.cart) == (200, "no items"))
        }
    }

    @Test("the closure form takes a condition and a transition, and the move is made before the closure runs")
    func computedResponses() async throws {
        try await withStubScope { scope in
            let cart = await scope.scenario("cart", startingIn: "empty")
            await scope.stub(.post(Self.items), when: cart.is("empty"), then: cart.transition(to: "filled")) { _ in
                .text("added while the cart is \(await cart.state ?? "gone")")
            }
            await scope.stub(.post(Self.items), when: cart.is("filled")) { _ in .status(409) }

            #expect(await send("POST", Self.items) == (200, "added while the cart is filled"))
            #expect(await send("POST", Self.items) == (409, ""))
        }
    }

    @Test("direct answers follow and move scenarios as a session does")
    func directAnswers() async throws {
        try await withStubScope { scope in
            let cart = await scope.scenario("cart", startingIn: "empty")
            await scope.stub(.post(Self.items), with: .status(201), when: cart.is("empty"), then: cart.transition(to: "filled"))
            await scope.stub(.get(Self.cart), with: .text("1 item"), when: cart.is("filled"))
            var request = URLRequest(url: URL(string: Self.items)!)
            request.httpMethod = "POST"

            let (_, response) = try await scope.data(for: request)
            let (body, _) = try await scope.data(from: URL(string: Self.cart)!)

            #expect(HTTPURLResponse.status(of: response) == 201)
            #expect(String(decoding: body, as: UTF8.self) == "1 item")
            #expect(await cart.state == "filled")
        }
    }

    @Test("a test reads and sets a scenario's state; asking for the scenario again returns it in its current state; once its scope ends it has none")
    func readingAndSettingTheState() async throws {
        let outlived = try await withStubScope { scope in
            let cart = await scope.scenario("cart", startingIn: "empty")
            #expect(await cart.state == "empty")
            await cart.move(to: "filled")
            #expect(await cart.state == "filled")
            let again = await scope.scenario("cart", startingIn: "empty")
            #expect(again == cart)
            #expect(await again.state == "filled")
            #expect(cart.name == "cart")
            #expect(cart.scope == scope)
            #expect("\(cart)" == "scenario \"cart\" of \(scope)")
            return cart
        }
        #expect(await outlived.state == nil)
    }

    // MARK: - Atomic transitions

    @Test("64 racing requests against a stub that moves its scenario from a to b: exactly one is answered in a, the rest in b")
    func racingRequestsMakeOneTransition() async throws {
        try await withStubScope("race") { scope in
            let race = await scope.scenario("race", startingIn: "a")
            let first = await scope.stub(.get("https://race.example/state"), with: .text("a"), times: .anyNumber, when: race.is("a"), then: race.transition(to: "b"))
            let rest = await scope.stub(.get("https://race.example/state"), with: .text("b"), when: race.is("b"))
            // Foundation starts one session's requests one at a time, on its queue:
            // for them to race, half are sent through sessions of their own, and
            // half are answered directly, on the tasks that ask.
            let sessions = (0..<32).map { _ in URLSession(configuration: .stubbed) }
            defer { sessions.forEach { $0.finishTasksAndInvalidate() } }
            let request = URLRequest(url: URL(string: "https://race.example/state")!)

            let bodies = await withTaskGroup(of: String.self) { group in
                for index in 0..<64 {
                    group.addTask {
                        let answer = index.isMultiple(of: 2)
                            ? try? await sessions[index / 2].data(for: request)
                            : try? await scope.data(for: request)
                        return answer.map { String(decoding: $0.0, as: UTF8.self) } ?? "failed"
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }

            #expect(bodies.count == 64)
            #expect(bodies.filter { $0 == "a" }.count == 1)
            #expect(bodies.filter { $0 == "b" }.count == 63)
            #expect(await first.hitCount == 1)
            #expect(await rest.hitCount == 63)
            #expect(await race.state == "b")
        }
    }

    // MARK: - Near misses

    @Test("a request that matches a stub in everything but its scenario's state fails naming the scenario, its state and the state the stub needs; that stub is the nearest")
    func nearMiss() async throws {
        let captured = Shared<(message: String, lines: [Int])>(("", []))
        let opened = #line; let error = await thrownError(StubVerificationError.self) { try await withStubScope("checkout") { scope in
            let cart = await scope.scenario("cart", startingIn: "empty")
            var lines: [Int] = []
            lines.append(await scope.stub(.get(Self.cart), with: .text("1 item"), when: cart.is("filled")).location.line)
            lines.append(await scope.stub(.get(Self.cart).header("Authorization", "Bearer t"), with: .text("private")).location.line)
            lines.append(await scope.stub(.post(Self.cart), with: .status(200), when: cart.is("paid")).location.line)
            let (_, message) = await send("GET", Self.cart)
            captured.value = (masked(message), lines)
        } }
        let (message, line) = captured.value
        #expect(message == """
            URLStubs: no stub matches GET https://shop.example/cart in scope #N "checkout" (opened at \(Self.file):\(opened)).
            Nearest stubs:
              1. GET https://shop.example/cart (registered at \(Self.file):\(line[0]))
                 - matches, but scenario "cart" is in "empty", not "filled"
              2. GET https://shop.example/cart [header Authorization: Bearer t] (registered at \(Self.file):\(line[1]))
                 - header: expected Authorization: Bearer t, got no Authorization header
              3. POST https://shop.example/cart (registered at \(Self.file):\(line[2]))
                 - method: expected POST, got GET
                 - scenario: "cart" is in "empty", not "paid"
            """)
        #expect(error?.problems.map { masked($0.message) } == [message])
    }

    @Test("the near miss of a stub whose scenario is in another state carries the scenario, the state it needs and the state it is in")
    func nearMissValue() async throws {
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                let cart = await scope.scenario("cart", startingIn: "empty")
                await scope.stub(.get(Self.cart), with: .text("1 item"), when: cart.is("filled"))
                _ = await send("GET", Self.cart)
            }
        }
        guard case let .unmatchedRequest(_, nearMisses)? = error?.problems.first?.kind else {
            Issue.record("expected an unmatched request, got \(String(describing: error))")
            return
        }
        let mismatches = nearMisses.first?.mismatches ?? []
        #expect(nearMisses.count == 1)
        #expect(mismatches.map(\.aspect) == [.scenario])
        #expect(mismatches.first?.scenario == "cart")
        #expect(mismatches.first?.expected == "filled")
        #expect(mismatches.first?.actual == "empty")
        #expect(mismatches.first?.description == #"scenario: "cart" is in "empty", not "filled""#)
    }

    // MARK: - Scopes

    @Test("scenarios of the same name in scopes running in parallel do not see each other's states")
    func parallelScopesAreIsolated() async throws {
        let scopes = 8
        let allCreated = Barrier(parties: scopes)
        let allMoved = Barrier(parties: scopes)
        let seen = try await withThrowingTaskGroup(of: (Int, String, String?).self) { group in
            for index in 0..<scopes {
                group.addTask {
                    try await withStubScope("case \(index)") { scope in
                        let cart = await scope.scenario("cart", startingIn: "empty")
                        await scope.stub(.post(Self.items), with: .status(201), when: cart.is("empty"), then: cart.transition(to: "filled"))
                        await scope.stub(.get(Self.cart), with: .text("empty in case \(index)"), when: cart.is("empty"))
                        await scope.stub(.get(Self.cart), with: .text("filled in case \(index)"), when: cart.is("filled"))
                        await allCreated.arrive()
                        if index.isMultiple(of: 2) {
                            _ = await send("POST", Self.items)
                        }
                        await allMoved.arrive()
                        return (index, await send("GET", Self.cart).body, await cart.state)
                    }
                }
            }
            return try await group.reduce(into: [Int: (String, String?)]()) { $0[$1.0] = ($1.1, $1.2) }
        }
        for index in 0..<scopes {
            let state = index.isMultiple(of: 2) ? "filled" : "empty"
            #expect(seen[index]?.0 == "\(state) in case \(index)")
            #expect(seen[index]?.1 == state)
        }
    }

    @Test("a stub in a nested scope may require and move a scenario of its enclosing scope, and the enclosing scope's stubs see the move")
    func nestedScopeUsesTheEnclosingScenario() async throws {
        try await withStubScope("outer") { outer in
            let cart = await outer.scenario("cart", startingIn: "empty")
            await outer.stub(.get(Self.cart), with: .text("outer: no items"), when: cart.is("empty"))
            await outer.stub(.get(Self.cart), with: .text("outer: 1 item"), when: cart.is("filled"))
            try await withStubScope("inner") { inner in
                await inner.stub(.post(Self.items), with: .status(201), when: cart.is("empty"), then: cart.transition(to: "filled"))
                #expect(await send("GET", Self.cart) == (200, "outer: no items"))
                #expect(await send("POST", Self.items) == (201, ""))
                #expect(await send("GET", Self.cart) == (200, "outer: 1 item"))
            }
            #expect(await cart.state == "filled")
            #expect(await send("GET", Self.cart) == (200, "outer: 1 item"))
        }
    }

    @Test("a nested scope's scenario of the same name is its own, and leaves the enclosing scope's scenario as it was")
    func nestedScenarioOfTheSameNameIsItsOwn() async throws {
        try await withStubScope("outer") { outer in
            let outerCart = await outer.scenario("cart", startingIn: "empty")
            try await withStubScope("inner") { inner in
                let innerCart = await inner.scenario("cart", startingIn: "empty")
                #expect(innerCart != outerCart)
                await inner.stub(.post(Self.items), with: .status(201), then: innerCart.transition(to: "filled"))
                _ = await send("POST", Self.items)
                #expect(await innerCart.state == "filled")
                #expect(await outerCart.state == "empty")
            }
        }
    }

    @Test("a nested scope that outlives the scope of a scenario keeps it working for the stubs it has, and refuses a new stub naming it")
    func outlivedScenario() async throws {
        let (opened, signalOpened) = AsyncStream<Void>.makeStream()
        let (gate, openGate) = AsyncStream<Void>.makeStream()
        let answers = Shared<[String]>([])
        let (inner, cart) = try await withStubScope("middle") { middle in
            let cart = await middle.scenario("cart", startingIn: "empty")
            let inner = Task {
                try await problems("inner") { inner in
                    await inner.stub(.post(Self.items), with: .status(201), when: cart.is("empty"), then: cart.transition(to: "filled"))
                    await inner.stub(.get(Self.cart), with: .text("1 item"), when: cart.is("filled"))
                    signalOpened.yield()
                    for await _ in gate { break }
                    await inner.stub(.delete(Self.cart), with: .status(204), then: cart.transition(to: "empty"))
                    answers.value = [await send("POST", Self.items), await send("GET", Self.cart)].map { "\($0.status) \($0.body)" }
                }
            }
            for await _ in opened { break }
            return (inner, cart)
        }
        openGate.yield()
        let messages = try await inner.value
        #expect(answers.value == ["201 ", "200 1 item"])
        #expect(messages == [#"The stub DELETE https://shop.example/cart was refused: its scenario "cart" belongs to scope #N, which has already ended."#])
        #expect(await cart.state == nil)
    }

    @Test("a stub of an enclosing scope cannot name a scenario of a scope nested in it, and a stub cannot name a scenario of a scope that ended: each is refused with the reason")
    func scenariosOfOtherScopesAreRefused() async throws {
        let ended = try await withStubScope { scope in await scope.scenario("cart", startingIn: "empty") }
        let messages = try await problems("outer") { outer in
            try await withStubScope("inner") { inner in
                let cart = await inner.scenario("basket", startingIn: "empty")
                await outer.stub(.get(Self.cart), with: .text("never"), when: cart.is("empty"))
            }
            await outer.stub(.get(Self.items), with: .text("never"), then: ended.transition(to: "filled"))
            let (status, message) = await send("GET", Self.items)
            #expect(status == -1)
            #expect(masked(message).hasPrefix("URLStubs: the stub GET https://shop.example/cart/items (registered at \(Self.file):"))
            #expect(masked(message).hasSuffix(
                " matches GET https://shop.example/cart/items but cannot answer it: its scenario \"cart\" belongs to scope #N, which is neither this scope nor one enclosing it; a stub can use the scenarios of its own scope, of the scopes enclosing it and of the global scope."
            ))
        }
        #expect(messages == [
            "The stub GET https://shop.example/cart was refused: its scenario \"basket\" belongs to scope #N, which is neither this scope nor one enclosing it; a stub can use the scenarios of its own scope, of the scopes enclosing it and of the global scope.",
            "The stub GET https://shop.example/cart/items was refused: its scenario \"cart\" belongs to scope #N, which is neither this scope nor one enclosing it; a stub can use the scenarios of its own scope, of the scopes enclosing it and of the global scope.",
        ])
    }

    @Test("a stub cannot name a scenario of a scope open beside its own (a parallel test's): it is refused with the reason")
    func scenarioOfAParallelScopeIsRefused() async throws {
        let ready = Latch()
        let finish = Latch()
        let shared = Shared<StubScenario?>(nil)
        let parallel = Task {
            try await withStubScope("parallel") { scope in
                let cart = await scope.scenario("cart", startingIn: "empty")
                shared.value = cart
                ready.open()
                await finish.wait()
            }
        }
        await ready.wait()
        let cart = try #require(shared.value)
        let messages = try await problems("mine") { mine in
            await mine.stub(.get(Self.cart), with: .text("never"), when: cart.is("empty"))
        }
        finish.open()
        try await parallel.value
        #expect(messages == [
            "The stub GET https://shop.example/cart was refused: its scenario \"cart\" belongs to scope #N, which is neither this scope nor one enclosing it; a stub can use the scenarios of its own scope, of the scopes enclosing it and of the global scope.",
        ])
    }

    // MARK: - Bad input

    @Test("a scenario with an empty name is refused, and so is every stub that names it; the requests they match fail with the reason")
    func emptyScenarioName() async throws {
        let captured = Shared<(message: String, stub: Int)>(("", 0))
        let messages = try await problems { scope in
            let unnamed = await scope.scenario("", startingIn: "empty")
            let stub = await scope.stub(.get(Self.cart), with: .text("never"), when: unnamed.is("empty")).location.line
            captured.value = (await send("GET", Self.cart).body, stub)
            #expect(await unnamed.state == nil)
        }
        let (message, stub) = captured.value
        #expect(messages == [
            #"The scenario "" was refused: a scenario needs a name, such as "cart"."#,
            #"The stub GET https://shop.example/cart was refused: its scenario "" cannot be used: a scenario needs a name, such as "cart"."#,
        ])
        #expect(message == #"URLStubs: the stub GET https://shop.example/cart (registered at \#(Self.file):\#(stub)) matches GET https://shop.example/cart but cannot answer it: its scenario "" cannot be used: a scenario needs a name, such as "cart"."#)
    }

    @Test("a scenario with an empty start state is refused with the reason, at the line that created it")
    func emptyStartState() async throws {
        let created = Shared(0)
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                created.value = #line; _ = await scope.scenario("cart", startingIn: "")
            }
        }
        #expect(error?.problems.map(\.message) == [#"The scenario "cart" was refused: its start state is empty, and a state needs a name."#])
        #expect(error?.problems.first?.location?.line == created.value)
        #expect(error?.description.hasSuffix(#"1. The scenario "cart" was refused: its start state is empty, and a state needs a name. (at \#(Self.file):\#(created.value))"#) == true)
        guard case let .invalidScenario(scenario, reason)? = error?.problems.first?.kind else {
            Issue.record("expected an invalid scenario")
            return
        }
        #expect(scenario == "cart")
        #expect(reason == "its start state is empty, and a state needs a name")
    }

    @Test("creating a scenario again with another start state is refused and the scenario keeps its first start state; with the same start state it is the same scenario")
    func createdTwice() async throws {
        let created = Shared(0)
        let messages = try await problems { scope in
            created.value = #line; let cart = await scope.scenario("cart", startingIn: "empty")
            await cart.move(to: "filled")
            let same = await scope.scenario("cart", startingIn: "empty")
            #expect(await same.state == "filled")
            let other = await scope.scenario("cart", startingIn: "paid")
            #expect(other == cart)
            #expect(await cart.state == "filled")
        }
        #expect(messages == [
            #"The scenario "cart" cannot start in "paid": scope #N already has it, starting in "empty" (created at \#(Self.file):\#(created.value))."#,
        ])
    }

    @Test("a stub that requires or makes an empty state is refused with the reason")
    func emptyStatesInStubs() async throws {
        let messages = try await problems { scope in
            let cart = await scope.scenario("cart", startingIn: "empty")
            await scope.stub(.get(Self.cart), with: .text("never"), when: cart.is(""))
            await scope.stub(.post(Self.items), times: .anyNumber, then: cart.transition(to: "")) { _ in .status(201) }
            #expect(await send("POST", Self.items).status == -1)
            #expect(await cart.state == "empty")
        }
        #expect(messages == [
            #"The stub GET https://shop.example/cart was refused: it requires the scenario "cart" to be in "", and a state needs a name."#,
            #"The stub POST https://shop.example/cart/items was refused: it moves the scenario "cart" to "", and a state needs a name."#,
        ])
    }

    @Test("moving a scenario to an empty state is refused at the line that asked, and the scenario stays where it was")
    func movingToAnEmptyState() async throws {
        let moved = Shared(0)
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                let cart = await scope.scenario("cart", startingIn: "empty")
                moved.value = #line; await cart.move(to: "")
                #expect(await cart.state == "empty")
            }
        }
        #expect(error?.problems.map(\.message) == [#"The scenario "cart" was not moved to "": a state needs a name."#])
        #expect(error?.problems.first?.location?.line == moved.value)
    }

    @Test("a scenario created or moved after its scope ended is ignored: it has no state")
    func scopeEnded() async throws {
        let scope = try await withStubScope { $0 }
        let cart = await scope.scenario("cart", startingIn: "empty")
        await cart.move(to: "filled")
        #expect(await cart.state == nil)
    }
}
