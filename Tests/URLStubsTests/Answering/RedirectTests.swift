#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

@Suite("Redirects", .timeLimit(.minutes(1)))
struct RedirectTests {
    private let old = URL(string: "https://api.example.com/v1/items/7")!
    private let new = URL(string: "https://api.example.com/v2/items/7")!

    private func post(_ url: URL, body: String) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        return request
    }

    @Test("a redirect is followed in the scope and the client gets the final response, with the final URL")
    func followed() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(old), with: .redirect(to: new.absoluteString))
            await scope.stub(.get(new), with: .text("moved here"))
            let (data, response) = try await URLSession.stubbed.data(from: old)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.url == new)
            #expect(String(decoding: data, as: UTF8.self) == "moved here")
            #expect(await scope.requests.map { "\($0.method) \($0.url)" } == ["GET \(old)", "GET \(new)"])
            #expect(await scope.exchanges.map(\.description) == [
                "GET \(old) -> 302 (0 bytes)",
                "GET \(new) -> 200 (10 bytes)",
            ])
        }
    }

    @Test("a 303 turns a POST into a GET without the body or the header fields describing it")
    func seeOtherBecomesGet() async throws {
        try await withStubScope { scope in
            await scope.stub(.post(old), with: .redirect(to: new.absoluteString, status: 303))
            await scope.stub(.get(new), with: .text("created"))
            let (data, _) = try await URLSession.stubbed.data(for: post(old, body: "name=x"))
            #expect(String(decoding: data, as: UTF8.self) == "created")
            let hop = try #require(await scope.requests.last)
            #expect(hop.method == "GET")
            #expect(hop.body == nil)
            #expect(hop.header("Content-Type") == nil)
        }
    }

    @Test("a 301 or 302 answering a POST turns it into a GET without its body, as clients do", arguments: [301, 302])
    func movedOrFoundAfterPostBecomesGet(status: Int) async throws {
        try await withStubScope { scope in
            await scope.stub(.post(old), with: .redirect(to: new.absoluteString, status: status))
            await scope.stub(.get(new), with: .text("ok"))
            let (data, _) = try await URLSession.stubbed.data(for: post(old, body: "a"))
            #expect(String(decoding: data, as: UTF8.self) == "ok")
            #expect(await scope.requests.map(\.method) == ["POST", "GET"])
            #expect(await scope.requests.last?.body == nil)
        }
    }

    @Test("307 and 308 keep the method, the body and its content type")
    func temporaryAndPermanentKeepTheBody() async throws {
        for status in [307, 308] {
            try await withStubScope { scope in
                await scope.stub(.post(old), with: .redirect(to: new.absoluteString, status: status))
                await scope.stub(.post(new)) { request in .text("got \(request.bodyText ?? "nothing")") }
                let (data, _) = try await URLSession.stubbed.data(for: post(old, body: "payload"))
                #expect(String(decoding: data, as: UTF8.self) == "got payload")
                let hop = try #require(await scope.requests.last)
                #expect(hop.method == "POST")
                #expect(hop.header("Content-Type") == "text/plain")
            }
        }
    }

    @Test("a relative Location is resolved against the request's URL")
    func relativeLocation() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(old), with: .redirect(to: "../../v2/items/7?page=2"))
            await scope.stub(.get("https://api.example.com/v2/items/7?page=2"), with: .text("relative"))
            let (data, response) = try await URLSession.stubbed.data(from: old)
            #expect(String(decoding: data, as: UTF8.self) == "relative")
            #expect(response.url?.absoluteString == "https://api.example.com/v2/items/7?page=2")
        }
    }

    @Test("a redirect loop fails with httpTooManyRedirects, each hop logged: after 10 redirects with URLStubs' message on Linux; at Foundation's own limit on Apple platforms, where Foundation follows redirects")
    func loopHitsTheLimit() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/a"), with: .redirect(to: "/b"))
            await scope.stub(.get("https://api.example.com/b"), with: .redirect(to: "/a"))
            let error = await #expect(throws: URLError.self) {
                try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/a")!)
            }
            #expect(error?.code == .httpTooManyRedirects)
            let paths = await scope.requests.map(\.url.path)
            #expect(paths.enumerated().allSatisfy { $0.element == ($0.offset.isMultiple(of: 2) ? "/a" : "/b") })
            #if canImport(FoundationNetworking)
            #expect(error?.localizedDescription == "URLStubs: too many redirects: after 10 in a row, https://api.example.com/a redirects again (302) to https://api.example.com/b; a stub may redirect in a loop.")
            #expect(paths.count == 11)
            #else
            // CFNetwork stops a loop at a limit of its own (16 hops, reported), with its own message.
            #expect(paths.count > 10)
            #endif
        }
    }

    @Test("a direct answer stops a redirect loop after 10 redirects with URLStubs' message, on every platform")
    func directAnswerLoopHitsTheLimit() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/a"), with: .redirect(to: "/b"))
            await scope.stub(.get("https://api.example.com/b"), with: .redirect(to: "/a"))
            let error = await #expect(throws: URLError.self) {
                try await scope.data(from: URL(string: "https://api.example.com/a")!)
            }
            #expect(error?.code == .httpTooManyRedirects)
            #expect(error?.localizedDescription == "URLStubs: too many redirects: after 10 in a row, https://api.example.com/a redirects again (302) to https://api.example.com/b; a stub may redirect in a loop.")
            #expect(await scope.requests.count == 11)
        }
    }

    #if canImport(FoundationNetworking)
    @Test("on Linux URLStubs follows the hops, and a session delegate's willPerformHTTPRedirection is not asked")
    func linuxDelegateIsNotAsked() async throws {
        let delegate = RedirectRecorder()
        let session = URLSession(configuration: .stubbed, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/old"), with: .redirect(to: "/new"))
            await scope.stub(.get("https://api.example.com/new"), with: .text("new"))
            let (data, _) = try await session.data(from: URL(string: "https://api.example.com/old")!)
            #expect(String(decoding: data, as: UTF8.self) == "new")
            #expect(delegate.asked.isEmpty)
        }
    }
    #endif

    @Test("a redirect with follow: false is delivered as the redirect response itself")
    func notFollowed() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(old), with: .redirect(to: new.absoluteString, status: 301, follow: false))
            let (_, response) = try await URLSession.stubbed.data(from: old)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 301)
            #expect(http.value(forHTTPHeaderField: "Location") == new.absoluteString)
            #expect(await scope.requests.count == 1)
        }
    }

    @Test("a delayed redirect and a delayed final response are followed on the producing task")
    func delayedHops() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(old), with: .redirect(to: new.absoluteString).delayed(by: .milliseconds(5)))
            await scope.stub(.get(new)) { _ in .text("computed").delayed(by: .milliseconds(5)) }
            let (data, response) = try await URLSession.stubbed.data(from: old)
            #expect(String(decoding: data, as: UTF8.self) == "computed")
            #expect(response.url == new)
            #expect(inFlightCount(in: scope) == 0)
        }
    }

    @Test("completion handlers and direct answers follow redirects the same way")
    func everyRouteFollows() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(old), with: .redirect(to: new.absoluteString, status: 308))
            await scope.stub(.get(new), with: .text("same"))
            let (data, response, error) = await completionHandlerData(for: URLRequest(url: old))
            #expect(error == nil)
            #expect(data == Data("same".utf8))
            #expect(response?.url == new)
            let (direct, directResponse) = try await scope.data(from: old)
            #expect(direct == Data("same".utf8))
            #expect(directResponse.url == new)
        }
    }

    @Test("a 303 answering a HEAD stays a HEAD")
    func headStaysHead() async throws {
        try await withStubScope { scope in
            await scope.stub(.head(old), with: .redirect(to: new.absoluteString, status: 303))
            await scope.stub(.head(new), with: .status(204))
            var request = URLRequest(url: old)
            request.httpMethod = "HEAD"
            let (_, response) = try await URLSession.stubbed.data(for: request)
            #expect(HTTPURLResponse.status(of: response) == 204)
        }
    }

    @Test("a 303 answering a HEAD with a body drops the body and the header fields describing it, as its documentation says")
    func headLosesBodyOn303() async throws {
        var request = URLRequest(url: old)
        request.httpMethod = "HEAD"
        request.httpBody = Data("probe".utf8)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        request.setValue("kept", forHTTPHeaderField: "X-Trace")
        let recorded = RecordedRequest(urlRequest: request, body: request.httpBody, sequenceNumber: 0)
        let next = try #require(RedirectHop.next(after: 303, headers: ["Location": new.absoluteString], for: recorded))
        #expect(next.httpMethod == "HEAD")
        #expect(next.httpBody == nil)
        #expect(next.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(next.value(forHTTPHeaderField: "X-Trace") == "kept")
        // 307 keeps them: the drop is the 303's.
        let kept = try #require(RedirectHop.next(after: 307, headers: ["Location": new.absoluteString], for: recorded))
        #expect(kept.httpBody == Data("probe".utf8))
        #expect(kept.value(forHTTPHeaderField: "Content-Type") == "text/plain")
    }

    @Test("a hop no stub answers fails like any unmatched request, naming the redirected URL")
    func unansweredHop() async throws {
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get(old), with: .redirect(to: new.absoluteString))
                let failure = await thrownError(URLError.self) { _ = try await URLSession.stubbed.data(from: old) }
                #expect(failure?.localizedDescription.hasPrefix("URLStubs: no stub matches GET \(new) in scope") == true)
            }
        }
        #expect(error?.problems.count == 1)
    }

    @Test("a redirect status other than 301, 302, 303, 307 or 308, or an empty location, is refused with the reason")
    func badRedirects() async throws {
        let error = await #expect(throws: StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get(old), with: .redirect(to: new.absoluteString, status: 304))
                await scope.stub(.get(new), with: .redirect(to: ""))
            }
        }
        #expect(error?.problems.map(\.message) == [
            "The stub GET \(old) was refused: status 304 is not a redirect a client follows (use 301, 302, 303, 307 or 308).",
            "The stub GET \(new) was refused: the redirect location \"\" is not a URL or a relative reference.",
        ])
    }
}

/// A session delegate that notes each redirect it is asked about, and follows it.
private final class RedirectRecorder: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    // @unchecked: `recorded` is read and written only under `lock`.
    private let lock = NSLock()
    private var recorded: [Int] = []

    var asked: [Int] {
        lock.withLock { recorded }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        lock.withLock { recorded.append(response.statusCode) }
        completionHandler(request)
    }
}
