/// A named state of a scope that changes as requests arrive, so that the same
/// request can be answered differently before and after another one: a cart that
/// is `empty`, then `filled`, then `paid`.
///
/// Create a scenario with ``StubScope/scenario(_:startingIn:fileID:filePath:line:column:)``,
/// then give stubs a condition and a transition:
///
/// ```swift
/// let cart = await scope.scenario("cart", startingIn: "empty")
/// await scope.stub(.get("https://shop.example/cart"), with: .json(emptyCart), when: cart.is("empty"))
/// await scope.stub(.post("https://shop.example/cart/items"), with: .status(201), when: cart.is("empty"), then: cart.transition(to: "filled"))
/// await scope.stub(.get("https://shop.example/cart"), with: .json(filledCart), when: cart.is("filled"))
/// ```
///
/// A stub with a condition matches only while its scenario is in that state;
/// otherwise the next stub is tried, as for a stub whose pattern does not match.
/// A stub with a transition moves its scenario when it answers a request, in the
/// same step as it is chosen, so of many requests racing for one move exactly one
/// makes it. Read the state with ``state`` and set it with ``move(to:fileID:filePath:line:column:)``.
///
/// A scenario belongs to the scope it was created in. The stubs of that scope, and
/// of the scopes nested in it, may name it; a stub that names the scenario of any
/// other scope is refused. A scenario of ``StubScope/global`` is seen by every
/// scope, and shared by every test running at the same time.
///
/// `StubScenario` is a small, `Sendable` handle: copying it is free, and its state
/// lives in the registry, with the scope's stubs.
public struct StubScenario: Sendable, Hashable {
    /// The scenario's name, unique in its scope.
    public let name: String
    /// The scope the scenario belongs to.
    public let scope: StubScope

    init(name: String, scope: StubScope) {
        self.name = name
        self.scope = scope
    }
}

extension StubScenario: CustomStringConvertible {
    /// The scenario written as its name and scope, such as `scenario "cart" of scope #12`.
    public var description: String {
        "scenario \(ScenarioMessages.quoted(name)) of \(scope)"
    }
}
