#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Benchmarking) import URLStubs

/// The benchmark's resolution without URL loading must do what `startLoading()`'s
/// resolution does, or its rows would measure something else.
@Suite("Resolution without URL loading (benchmark SPI)", .timeLimit(.minutes(1)))
struct ResolutionWithoutLoadingTests {
    @Test("a request is recorded, takes a use of its stub, and its answer is written down")
    func recordsAndTakesAUse() async throws {
        try await withStubScope { scope in
            let stub = await scope.stub(.get("https://api.example.com/items/{id}"), with: .text("item"))
            #expect(scope.resolveWithoutLoading(URLRequest(url: URL(string: "https://api.example.com/items/7")!)))
            #expect(await stub.hitCount == 1)
            let exchanges = await scope.exchanges
            #expect(exchanges.map(\.request.url.absoluteString) == ["https://api.example.com/items/7"])
            #expect(exchanges.first?.request.pathParameters == ["id": "7"])
            guard case let .response(status, _, body)? = exchanges.first?.outcome else {
                Issue.record("expected a response, got \(String(describing: exchanges.first?.outcome))")
                return
            }
            #expect(status == 200)
            #expect(body == Data("item".utf8))
        }
    }

    @Test("a body given as a stream is read as startLoading() reads it, for resolving and for matching alone")
    func readsBodyStreams() async throws {
        try await withStubScope { scope in
            let stub = await scope.stub(.post("https://api.example.com/items").body("streamed"), with: .text("created"))
            var request = URLRequest(url: URL(string: "https://api.example.com/items")!)
            request.httpMethod = "POST"
            request.httpBodyStream = InputStream(data: Data("streamed".utf8))
            #expect(await scope.matchWithoutRecording(request))
            request.httpBodyStream = InputStream(data: Data("streamed".utf8))
            #expect(scope.resolveWithoutLoading(request))
            #expect(await stub.hitCount == 1)
            #expect(await scope.exchanges.first?.request.body == Data("streamed".utf8))
        }
    }

    @Test("a request no stub matches returns false and is reported when the scope ends, as in URL loading")
    func unmatchedIsReported() async {
        await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                #expect(!scope.resolveWithoutLoading(URLRequest(url: URL(string: "https://api.example.com/missing")!)))
            }
        }
    }

    @Test("a computed answer runs its closure and is written down; a delayed one is written down as cancelled")
    func computedAndDelayed() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/users/{id}")) { request in
                .text("user " + (request.pathParameters["id"] ?? ""))
            }
            await scope.stub(.get("https://api.example.com/slow"), with: .text("slow").delayed(by: .seconds(60)))
            #expect(scope.resolveWithoutLoading(URLRequest(url: URL(string: "https://api.example.com/users/3")!)))
            #expect(scope.resolveWithoutLoading(URLRequest(url: URL(string: "https://api.example.com/slow")!)))
            let outcomes = await scope.exchanges.map(\.outcome)
            guard outcomes.count == 2, case let .response(_, _, body) = outcomes[0], case .cancelled = outcomes[1] else {
                Issue.record("expected a response and a cancel, got \(outcomes)")
                return
            }
            #expect(body == Data("user 3".utf8))
        }
    }
}
