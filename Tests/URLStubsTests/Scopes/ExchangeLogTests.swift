#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@_spi(Integration) import URLStubs

/// `scope.exchanges`: each request with what answered it and how it ended.
@Suite("The exchange log", .timeLimit(.minutes(1)))
struct ExchangeLogTests {
    /// The outcome written as a short word, for comparing whole logs.
    static func summary(_ exchange: RecordedExchange) -> String {
        switch exchange.outcome {
        case .waiting: "\(exchange.request.url.path) waiting"
        case let .response(status, _, body): "\(exchange.request.url.path) \(status) \(String(decoding: body, as: UTF8.self))"
        case let .failure(error): "\(exchange.request.url.path) failed \((error as? URLError)?.code.rawValue ?? 0)"
        case .cancelled: "\(exchange.request.url.path) cancelled"
        case let .abandoned(error): "\(exchange.request.url.path) abandoned \(error.code.rawValue)"
        }
    }

    @Test("fixed, computed, failing, unmatched and over-limit requests are logged with their outcome and the stub that answered")
    func outcomes() async throws {
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                let fixed = await scope.stub(.get("https://log.example.com/fixed"), with: .text("a"), times: .once)
                let computed = await scope.stub(.get("https://log.example.com/computed")) { _ in .text("b", status: 201) }
                let failing = await scope.stub(.get("https://log.example.com/down"), with: .failure(.notConnectedToInternet))
                for path in ["fixed", "computed", "down", "unknown", "fixed"] {
                    _ = try? await getText("https://log.example.com/\(path)")
                }
                let exchanges = await scope.exchanges
                #expect(exchanges.map(Self.summary) == [
                    "/fixed 200 a",
                    "/computed 201 b",
                    "/down failed \(URLError.Code.notConnectedToInternet.rawValue)",
                    "/unknown failed \(URLError.Code.resourceUnavailable.rawValue)",
                    "/fixed failed \(URLError.Code.resourceUnavailable.rawValue)",
                ])
                #expect(exchanges.map(\.source) == [.stub(fixed.location), .stub(computed.location), .stub(failing.location), .none, .none])
                #expect(exchanges[0].description == "GET https://log.example.com/fixed -> 200 (1 bytes)")
            }
        }
        #expect(error?.problems.count == 2) // The unmatched request and the 2nd request of a `.once` stub.
    }

    @Test("a cancelled request is logged as cancelled, with no warning when the scope ends")
    func cancelled() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://log.example.com/slow"), with: .text("late").delayed(by: .seconds(3_600)))
            let request = Task { try await URLSession.stubbed.data(from: URL(string: "https://log.example.com/slow")!) }
            _ = try await scope.waitForRequest(timeout: .patience)
            #expect(await scope.exchanges.map(Self.summary) == ["/slow waiting"])
            request.cancel()
            _ = try? await request.value
            #expect(await scope.exchanges.map(Self.summary) == ["/slow cancelled"])
        }
    }

    @Test("a request cancelled while answered directly is logged as cancelled too")
    func cancelledDirectly() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://log.example.com/slow"), with: .text("late").delayed(by: .seconds(3_600)))
            let request = Task { try await scope.data(from: URL(string: "https://log.example.com/slow")!) }
            _ = try await scope.waitForRequest(timeout: .patience)
            request.cancel()
            _ = try? await request.value
            #expect(await scope.exchanges.map(Self.summary) == ["/slow cancelled"])
        }
    }

    @Test("a request still waiting when its scope ends is logged as abandoned, with the scope's failure, in the exchanges the scope leaves")
    func abandoned() async throws {
        let outcome = await StubScope.withNewScope(name: nil, location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)) { scope in
            await scope.stub(.get("https://log.example.com/slow"), with: .text("late").delayed(by: .seconds(3_600)))
            Task { _ = try? await URLSession.stubbed.data(from: URL(string: "https://log.example.com/slow")!) }
            _ = try await scope.waitForRequest(timeout: .patience)
        }
        #expect(outcome.exchanges.map(Self.summary) == ["/slow abandoned \(URLError.Code.resourceUnavailable.rawValue)"])
        #expect(outcome.problems.map(\.isWarning) == [true])
    }

    @Test("a scope opened not keeping its exchanges and use leaves neither when it ends with no problem, and its exchanges when it ends with one (abandoned, unmatched), for them to be scrubbed")
    func keptForProblemsOnly() async throws {
        func outcome(_ paths: [String], waiting: Bool = false) async -> StubScope.Outcome<Void> {
            await StubScope.withNewScope(name: nil, location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column), keepingExchanges: false, keepingUsage: false) { scope in
                await scope.stub(.get("https://log.example.com/known"), with: .text("a"))
                await scope.stub(.get("https://log.example.com/slow"), with: .text("late").delayed(by: .seconds(3_600)))
                for path in paths {
                    _ = try? await getText("https://log.example.com/\(path)")
                }
                if waiting {
                    Task { _ = try? await URLSession.stubbed.data(from: URL(string: "https://log.example.com/slow")!) }
                    _ = try await scope.waitForRequest(matching: .get("https://log.example.com/slow"), timeout: .patience)
                }
            }
        }
        let clean = await outcome(["known", "known"])
        #expect(clean.problems.isEmpty)
        #expect(clean.exchanges.isEmpty)
        #expect(clean.usage.isEmpty)
        let unmatched = await outcome(["known", "unknown"])
        #expect(unmatched.exchanges.map(Self.summary) == ["/known 200 a", "/unknown failed \(URLError.Code.resourceUnavailable.rawValue)"])
        #expect(unmatched.usage.isEmpty)
        let abandoned = await outcome(["known"], waiting: true)
        #expect(abandoned.exchanges.map(Self.summary) == ["/known 200 a", "/slow abandoned \(URLError.Code.resourceUnavailable.rawValue)"])
    }
}
