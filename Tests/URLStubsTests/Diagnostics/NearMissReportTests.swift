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

    @Test("a stub registered with a file ID holding line breaks is written one line per line too, indented under its number")
    func fileIDWithLineBreaks() async throws {
        let request = URLRequest(url: URL(string: "https://api.example.com/notes")!)
        let (message, _) = try await failureMessage(of: request, named: "file") { scope in
            await scope.stub(.get("https://api.example.com/note"), with: .status(200), fileID: "Notes/\n\nA.swift", line: 7)
        }
        #expect(message.hasSuffix("""
            Nearest stubs:
              1. GET https://api.example.com/note (registered at Notes/
                 A.swift:7)
                 - path: expected /note, got /notes
            """))
    }

    @Test("a difference whose text holds line breaks is written one line per line, indented under its stub, blank lines dropped")
    func multilineDifference() async throws {
        var request = URLRequest(url: URL(string: "https://api.example.com/notes")!)
        request.httpMethod = "POST"
        request.httpBody = Data("first\n\nsecond\r\nthird".utf8)
        let line = Shared(0)
        let (message, _) = try await failureMessage(of: request, named: "lines") { scope in
            line.value = await scope.stub(.post("https://api.example.com/notes").body("one\ntwo"), with: .status(201)).location.line
        }
        #expect(message.hasSuffix("""
            Nearest stubs:
              1. POST https://api.example.com/notes [body of 7 bytes] (registered at \(Self.file):\(line.value))
                 - body: expected "one
                 two", got "first
                 second
                 third"
            """))
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

    @Test("when no stub is near, the report lists the request's own scope's stubs, not its enclosing scope's, with everything that differed")
    func farStubsOfTheOwnScopeAreListed() async throws {
        let request = URLRequest(url: URL(string: "https://asked.example.com/wanted")!)
        let captured = Shared<(message: String, opened: Int, offered: Int)>(("", 0, 0))
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope("outer") { outer in
                await outer.stub(.get("https://outer.example.com/elsewhere"), with: .status(200))
                let opened = #line; try await withStubScope("inner") { inner in
                    let offered = await inner.stub(.post("https://own.example.com/offered"), with: .status(200)).location.line
                    let failure = await thrownError(URLError.self) { _ = try await URLSession.stubbed.data(for: request) }
                    captured.value = (failure?.localizedDescription ?? "no failure", opened, offered)
                }
            }
        }
        let (message, opened, offered) = captured.value
        #expect(masked(message) == """
            URLStubs: no stub matches GET https://asked.example.com/wanted in scope #N "inner" (opened at \(Self.file):\(opened)).
            Nearest stubs:
              1. POST https://own.example.com/offered (registered at \(Self.file):\(offered))
                 - method: expected POST, got GET
                 - origin: expected https://own.example.com, got https://asked.example.com
                 - path: expected /offered, got /wanted
            """)
        #expect(error?.problems.count == 1) // The inner scope's error wins; the outer scope saw no problem of its own.
    }

    @Test("among equally near stubs, the one with fewer differences comes first, then the newest, and only the nearest three are listed")
    func tiesGoToFewerDifferencesThenTheNewest() async throws {
        let request = URLRequest(url: URL(string: "https://api.example.com/wanted")!)
        let lines = Shared<[Int]>([])
        let (message, scope) = try await failureMessage(of: request, named: "ties") { scope in
            var registered: [Int] = []
            registered.append(await scope.stub(.get("https://api.example.com/oldest"), with: .status(200)).location.line)
            registered.append(await scope.stub(.post("https://api.example.com/wanted?page=2"), with: .status(200)).location.line)
            registered.append(await scope.stub(.get("https://api.example.com/middle"), with: .status(200)).location.line)
            registered.append(await scope.stub(.get("https://api.example.com/newest"), with: .status(200)).location.line)
            lines.value = registered
        }
        let line = lines.value
        let opened = message.components(separatedBy: "(opened at ").last?.components(separatedBy: ")").first ?? "?"
        // Every stub is 3 away: a wrong path (3), or a wrong method (2) and query (1).
        #expect(message == """
            URLStubs: no stub matches GET https://api.example.com/wanted in \(scope) "ties" (opened at \(opened)).
            Nearest stubs:
              1. GET https://api.example.com/newest (registered at \(Self.file):\(line[3]))
                 - path: expected /newest, got /wanted
              2. GET https://api.example.com/middle (registered at \(Self.file):\(line[2]))
                 - path: expected /middle, got /wanted
              3. GET https://api.example.com/oldest (registered at \(Self.file):\(line[0]))
                 - path: expected /oldest, got /wanted
            """)
    }
}
