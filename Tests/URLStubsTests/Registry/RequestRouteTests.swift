import Testing
@testable import URLStubs

@Suite("A request's route: the scope it was made in, or none")
struct RequestRouteTests {
    @Test("a request made with no scope current, or with the global scope current, has no scope: the global scope holds it and no scope is current while its answer is made")
    func noScope() {
        #expect(RequestRoute(current: nil) == .noScope)
        #expect(RequestRoute(current: .global) == .noScope)
        #expect(RequestRoute.noScope.home == .global)
        #expect(RequestRoute.noScope.scope == nil)
    }

    @Test("a request made in a scope is routed to that scope, which holds it and is current while its answer is made")
    func inAScope() async throws {
        try await withStubScope { scope in
            #expect(RequestRoute.current == .scope(scope))
            #expect(RequestRoute(current: scope).home == scope)
            #expect(RequestRoute(current: scope).scope == scope)
        }
        #expect(RequestRoute.current == .noScope)
    }
}
