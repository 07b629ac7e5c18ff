#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Near-miss reports", .timeLimit(.minutes(1)))
struct NearMissReportTests {
    /// The message of the URLError `request` fails with in a scope prepared by `setup`.
    private func failureMessage(
        of request: URLRequest,
        named name: String,
        _ setup: (StubScope) async -> Void
    ) async throws -> (message: String, scope: String) {
        let captured = Shared<(String, String)>(("", ""))
        do {
            try await withStubScope(name) { scope in
                await setup(scope)
                do {
                    _ = try await URLSession.stubbed.data(for: request)
                } catch {
                    captured.value = (error.localizedDescription, "\(scope)")
                }
            }
        } catch is StubVerificationError {}
        return captured.value
    }

    private static let file = "URLStubsTests/NearMissReportTests.swift"

    @Test("the nearest stubs are ranked, each with what differed")
    func rankedNearMisses() async throws {
        var request = URLRequest(url: URL(string: "https://api.example.com/users/2?expand=true")!)
        request.httpMethod = "POST"
        request.setValue("Bearer old", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"name":"Ada"}"#.utf8)
        let lines = Shared<[Int]>([])
        let (message, scope) = try await failureMessage(of: request, named: "near misses") { scope in
            var registered: [Int] = []
            registered.append(await scope.stub(.get("https://other.example.com/elsewhere"), with: .status(200)).location.line)
            registered.append(await scope.stub(.post("https://api.example.com/users/{id}").header("Authorization", "Bearer new"), with: .status(200)).location.line)
            registered.append(await scope.stub(.get("https://api.example.com/users/{id}"), with: .status(200)).location.line)
            registered.append(await scope.stub(.post("https://api.example.com/users/{id}?expand=false").jsonBody(["name": "Bob"]), with: .status(200)).location.line)
            lines.value = registered
        }
        let line = lines.value
        let opened = message.components(separatedBy: "(opened at ").last?.components(separatedBy: ")").first ?? "?"
        #expect(message == """
            URLStubs: no stub matches POST https://api.example.com/users/2?expand=true in \(scope) "near misses" (opened at \(opened)).
            Nearest stubs:
              1. POST https://api.example.com/users/{id} [header Authorization: Bearer new] (registered at \(Self.file):\(line[1]))
                 - header: expected Authorization: Bearer new, got Authorization: Bearer old
              2. GET https://api.example.com/users/{id} (registered at \(Self.file):\(line[2]))
                 - method: expected GET, got POST
              3. POST https://api.example.com/users/{id}?expand=false [JSON body {"name":"Bob"}] (registered at \(Self.file):\(line[3]))
                 - query: expected expand=false, got expand=true
                 - body: expected JSON {"name":"Bob"}, got {"name":"Ada"}
            """)
    }

    @Test("a wrong host or scheme is named as the origin")
    func originMismatch() async throws {
        let request = URLRequest(url: URL(string: "http://api.example.com:8080/status")!)
        let line = Shared(0)
        let (message, _) = try await failureMessage(of: request, named: "origin") { scope in
            line.value = await scope.stub(.get("https://api.example.com/status"), with: .status(200)).location.line
        }
        #expect(message.hasSuffix("""
            Nearest stubs:
              1. GET https://api.example.com/status (registered at \(Self.file):\(line.value))
                 - origin: expected https://api.example.com, got http://api.example.com:8080
            """))
    }

    @Test("a scope with no stubs says so")
    func noStubs() async throws {
        let request = URLRequest(url: URL(string: "https://empty.example.com/\(UUID().uuidString)")!)
        let (message, _) = try await failureMessage(of: request, named: "empty") { _ in }
        // Other tests may hold global stubs at this moment, none of them near this URL.
        let noStubs = "\nNo stub is registered in this scope, its enclosing scopes or the global scope."
        let noneNear = #/\nNone of the \d+ registered stubs comes close: none shares its origin or its path\.$/#
        #expect(message.hasSuffix(noStubs) || message.contains(noneNear))
        #expect(message.contains("\"empty\""))
    }
}
