#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension StubScope {
    /// Serves this scope over HTTP/1.1 on the loopback interface, for clients a
    /// URL protocol cannot reach: the app of a UI test (another process), a
    /// client that is not `URLSession`, a session the test cannot configure.
    ///
    /// ```swift
    /// try await withStubScope { scope in
    ///     await scope.stub(.get("/users/1"), with: .json(#"{"id": 1}"#))
    ///     let server = try await scope.serve()
    ///     let (data, _) = try await URLSession.shared.data(from: server.baseURL.appending(path: "users/1"))
    /// }
    /// ```
    ///
    /// A request is answered as a stubbed `URLSession` request made in this scope
    /// would be: by this scope's stubs, then its enclosing scopes', then the global
    /// scope's. Its URL is the server's (`http://127.0.0.1:<port>/users/1`), which
    /// path-only patterns such as `/users/1` match; with `origin`, the server stands
    /// in for that origin instead: a request for `/users/1` is seen as
    /// `https://api.example.com/users/1`, so stubs written for the real service
    /// match, and a redirect to that origin is sent pointing at the server.
    ///
    /// The server stops when the scope ends. Each call starts another server, on
    /// a port of its own.
    ///
    /// - Parameters:
    ///   - origin: The origin the server stands in for (a scheme and a host, and
    ///     optionally a port), or `nil`.
    ///   - limits: The limits every client is held to.
    /// - Returns: The running server; its ``StubServer/baseURL`` is the URL to give
    ///   the client.
    /// - Throws: ``ServingError`` when the scope has ended, `origin` is not an
    ///   origin, a limit is not positive, or no loopback socket could be opened.
    nonisolated(nonsending) public func serve(as origin: URL? = nil, limits: ServingLimits = ServingLimits()) async throws -> StubServer {
        try startServer(as: origin, limits: limits)
    }

    /// ``serve(as:limits:)``, for synchronous callers (an XCTest `setUp`).
    func startServer(as origin: URL?, limits: ServingLimits) throws(ServingError) -> StubServer {
        if let origin {
            guard let components = URLComponents(url: origin, resolvingAgainstBaseURL: false),
                  let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  components.host?.isEmpty == false, components.path.isEmpty || components.path == "/",
                  components.query == nil, components.fragment == nil, components.user == nil
            else {
                throw ServingError(ServingMessages.badOrigin(origin.absoluteString))
            }
        }
        if let (name, value) = limits.problem {
            throw ServingError(ServingMessages.badLimit(name, value))
        }
        guard StubRegistry.shared.isOpen(self) else { throw ServingError(ServingMessages.scopeEnded(self)) }
        let server = try StubServer(scope: self, origin: origin, limits: limits)
        guard StubRegistry.shared.stopWhenEnded(server, in: self) else {
            server.stop()
            throw ServingError(ServingMessages.scopeEnded(self))
        }
        server.start()
        return server
    }
}
