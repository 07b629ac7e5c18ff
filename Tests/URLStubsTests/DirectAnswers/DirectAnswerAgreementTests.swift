#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Direct answers (`scope.data(for:)`) and a stubbed `URLSession` must be
/// interchangeable: for every case below, the same stubs give the same responses,
/// errors, stub uses, request log and end-of-scope report through both.
@Suite("Direct answers agree with URLSession", .timeLimit(.minutes(1)))
struct DirectAnswerAgreementTests {
    /// How a case's requests are made.
    enum Route: String, CaseIterable {
        case session = "URLSession.stubbed"
        case direct = "scope.data(for:)"
    }

    /// Stubs to register and requests to make, both routes alike.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let requests: [URLRequest]
        let register: @Sendable (StubScope) async -> Stub

        var testDescription: String { name }

        init(_ name: String, _ requests: [URLRequest], register: @escaping @Sendable (StubScope) async -> Stub) {
            self.name = name
            self.requests = requests
            self.register = register
        }
    }

    /// Everything observable about a case's run through one route.
    struct Observation: Equatable {
        /// Each request's response (status, headers, body, URL) or error (domain,
        /// code, description, failing URL), in order.
        var outcomes: [String] = []
        /// The scope's request log: method, URL, headers, body and path parameters.
        var log: [String] = []
        /// How many requests the stub answered.
        var hits = 0
        /// The error the scope ended with, as text; `nil` when it ended cleanly.
        var report: String?
    }

    private static let url = URL(string: "https://api.example.com/users/42")!

    private static func request(_ method: String = "GET", _ url: URL = url, body: String? = nil, headers: [String: String] = [:]) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    private struct Teapot: Error, CustomStringConvertible {
        var description: String { "the teapot is busy" }
    }

    static let cases: [Case] = [
        Case("a JSON body with status 200", [request()]) {
            await $0.stub(.get(url), with: .json(#"{"id": 42}"#))
        },
        Case("a status, extra headers and a text body", [request()]) {
            await $0.stub(.get(url), with: .text("gone", status: 410, headers: ["X-Trace": "abc", "Cache-Control": "no-store"]))
        },
        Case("a status without a body", [request("DELETE")]) {
            await $0.stub(.delete(url), with: .status(204))
        },
        Case("HEAD gets the headers but no body", [request("HEAD")]) {
            await $0.stub(.head(url), with: .text("not sent"))
        },
        Case("a URLError code", [request()]) {
            await $0.stub(.get(url), with: .failure(.timedOut))
        },
        Case("an error of the test's own", [request()]) {
            await $0.stub(.get(url), with: .failure(Teapot()))
        },
        Case("a delayed response", [request()]) {
            await $0.stub(.get(url), with: .text("late").delayed(by: .milliseconds(20)))
        },
        Case("a computed response that reads the request", [request("POST", body: "ping", headers: ["X-Id": "7"])]) {
            await $0.stub(.post(url)) { request in
                .text("\(request.header("x-id") ?? "?"):\(request.bodyText ?? "")", status: 201)
            }
        },
        Case("a computed response that throws", [request()]) {
            await $0.stub(.get(url)) { _ in throw URLError(.cannotConnectToHost) }
        },
        Case("a template stub with path parameters and a query", [request("GET", URL(string: "https://api.example.com/users/42?expand=teams")!)]) {
            await $0.stub(.get("https://api.example.com/users/{id}").query("expand", "teams"), with: .text("expanded"))
        },
        Case("a sequence answers in turn", [request(), request(), request()]) {
            await $0.stub(.get(url), with: .sequence([.text("one"), .text("two")]))
        },
        Case("a request no stub matches, with a near miss", [request("POST", body: "{}")]) {
            await $0.stub(.get(url), with: .text("only GET"))
        },
        Case("a request beyond times: .once", [request(), request()]) {
            await $0.stub(.get(url), with: .text("once"), times: .once)
        },
        Case("an unmet expectation", [request()]) {
            await $0.stub(.get(url), with: .text("twice"), times: .exactly(2))
        },
        Case("a forbidden request", [request()]) {
            await $0.stub(.get(url), with: .text("never"), times: .never)
        },
        Case("a redirect to a URL no stub answers", [request()]) {
            await $0.stub(.get(url), with: .status(302, headers: ["Location": "https://api.example.com/elsewhere"]))
        },
        Case("a followed redirect", [request()]) {
            await $0.stub(.get("https://api.example.com/elsewhere"), with: .text("here"))
            return await $0.stub(.get(url), with: .redirect(to: "/elsewhere", status: 307))
        },
        Case("a redirect delivered as it is", [request()]) {
            await $0.stub(.get(url), with: .redirect(to: "/elsewhere", follow: false))
        },
        Case("a stream", [request()]) {
            await $0.stub(.get(url), with: .chunks([Data("a".utf8), Data("b".utf8)], every: .milliseconds(1)))
        },
        Case("a stream that fails mid-way", [request()]) {
            await $0.stub(.get(url), with: .chunks([Data("a".utf8), Data("b".utf8)]).failing(after: .chunks(1), with: .networkConnectionLost))
        },
    ]

    /// Runs `testCase` through `route` in a fresh scope and observes everything.
    private static func observe(_ testCase: Case, via route: Route) async -> Observation {
        let observation = Locked(Observation())
        do {
            try await withStubScope("agreement") { scope in
                let stub = await testCase.register(scope)
                for request in testCase.requests {
                    let outcome: String
                    do {
                        let (data, response) = switch route {
                        case .session: try await URLSession.stubbed.data(for: request)
                        case .direct: try await scope.data(for: request)
                        }
                        outcome = describe(data, response)
                    } catch {
                        outcome = describe(error)
                    }
                    observation.withLock { $0.outcomes.append(outcome) }
                }
                let log = await scope.requests.map(describe)
                let hits = await stub.hitCount
                observation.withLock { $0.log = log; $0.hits = hits }
            }
        } catch {
            // Scope numbers differ between the two runs; everything else must not.
            let report = "\(error)".replacing(/scope #\d+/, with: "scope #N")
            observation.withLock { $0.report = report }
        }
        return observation.withLock { $0 }
    }

    private static func describe(_ data: Data, _ response: URLResponse) -> String {
        guard let http = response as? HTTPURLResponse else { return "not HTTP: \(response)" }
        let headers = http.allHeaderFields.map { "\($0.key): \($0.value)" }.sorted().joined(separator: ", ")
        return "\(http.statusCode) [\(headers)] \(String(decoding: data, as: UTF8.self)) from \(http.url?.absoluteString ?? "?")"
    }

    private static func describe(_ error: any Error) -> String {
        let error = error as NSError
        let failingURL = (error.userInfo[NSURLErrorFailingURLErrorKey] as? URL)?.absoluteString ?? "none"
        let description = error.localizedDescription.replacing(/scope #\d+/, with: "scope #N")
        return "\(error.domain) \(error.code): \(description) (failing URL: \(failingURL))"
    }

    private static func describe(_ request: RecordedRequest) -> String {
        let headers = request.headers.map { "\($0.key): \($0.value)" }.sorted().joined(separator: ", ")
        let parameters = request.pathParameters.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
        return "\(request.method) \(request.url.absoluteString) [\(headers)] body: \(request.bodyText ?? "none") parameters: \(parameters)"
    }

    @Test("the same stubs give the same observable results through URLSession and direct answers", .timeLimit(.minutes(1)), arguments: cases)
    func routesAgree(_ testCase: Case) async {
        let throughSession = await Self.observe(testCase, via: .session)
        let direct = await Self.observe(testCase, via: .direct)
        #expect(direct == throughSession)
        #expect(!throughSession.outcomes.isEmpty && throughSession.log.count >= testCase.requests.count) // A redirect logs each hop.
    }

    @Test("a representative case yields exactly the expected observation, so agreement is not agreement on nothing")
    func expectedObservation() async throws {
        let testCase = try #require(Self.cases.first { $0.name == "a request beyond times: .once" })
        let direct = await Self.observe(testCase, via: .direct)
        #expect(direct.outcomes.count == 2)
        #expect(direct.outcomes.first == "200 [Content-Length: 4, Content-Type: text/plain; charset=utf-8] once from https://api.example.com/users/42")
        #expect(direct.outcomes.last?.hasPrefix("NSURLErrorDomain \(URLError.Code.resourceUnavailable.rawValue): URLStubs:") == true)
        #expect(direct.log == Array(repeating: "GET https://api.example.com/users/42 [] body: none parameters: ", count: 2))
        #expect(direct.hits == 1)
        #expect(direct.report?.contains("GET https://api.example.com/users/42") == true)
    }
}
