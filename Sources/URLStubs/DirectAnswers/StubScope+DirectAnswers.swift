#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Answering requests directly, for code that takes its transport as a protocol or
/// a closure instead of a `URLSession`.
///
/// A scope answers exactly as a stubbed `URLSession` would answer a request made in
/// it: the same `HTTPURLResponse`, body, error, delay, stub uses, request log entry
/// and near-miss report, because the request goes through the same resolution.
/// No `URLProtocol` is involved, so none of its platform differences apply: the
/// body of an upload is seen on every platform, and the answer does not depend on
/// the task the call is made from.
///
/// ```swift
/// protocol NetworkSession: Sendable {
///     func data(for request: URLRequest) async throws -> (Data, URLResponse)
/// }
/// extension StubScope: NetworkSession {}   // in the test target
///
/// @Test func loadsTheProfile() async throws {
///     try await withStubScope { scope in
///         await scope.stub(.get("https://api.example.com/me"), with: .json(#"{"name": "Ada"}"#))
///         let profile = try await ProfileLoader(session: scope).load()
///         #expect(profile.name == "Ada")
///     }
/// }
/// ```
extension StubScope {
    /// Answers `request` from this scope's stubs (then its enclosing scopes' and the
    /// global scope's), as `URLSession.data(for:)` of a stubbed session would.
    ///
    /// - Returns: The response's body and the `HTTPURLResponse`.
    /// - Throws: The stub's error, a `URLError` explaining why no stub answered, or
    ///   `URLError(.cancelled)` when the calling task is cancelled, before asking
    ///   (then no request is made, as with `URLSession` on Apple platforms) or while
    ///   waiting for a delayed or computed answer.
    nonisolated(nonsending) public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await DirectAnswer.answer(request, body: RequestBody.read(from: request), in: self)
    }

    /// Answers a `GET` of `url`, as `URLSession.data(from:)` of a stubbed session would.
    nonisolated(nonsending) public func data(from url: URL) async throws -> (Data, URLResponse) {
        try await data(for: URLRequest(url: url))
    }

    /// Answers `request` with `bodyData` as its body, as `URLSession.upload(for:from:)`
    /// of a stubbed session would, except that the body is always seen: it is the
    /// logged request's ``RecordedRequest/body`` and what body conditions compare.
    nonisolated(nonsending) public func upload(for request: URLRequest, from bodyData: Data) async throws -> (Data, URLResponse) {
        try await DirectAnswer.answer(request, body: bodyData, in: self)
    }

    /// A closure that answers requests from this scope, for code that takes its
    /// transport as `(URLRequest) async throws -> (Data, URLResponse)`.
    ///
    /// The closure keeps answering from this scope wherever it is called from; once
    /// the scope has ended, it fails every request with an error saying so.
    public var httpClient: @Sendable (URLRequest) async throws -> (Data, URLResponse) {
        { request in try await self.data(for: request) }
    }
}
