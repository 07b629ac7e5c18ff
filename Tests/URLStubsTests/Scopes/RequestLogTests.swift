#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

@Suite("Request log", .timeLimit(.minutes(1)))
struct RequestLogTests {
    @Test("a JSON POST body is recorded and decodes to what was sent")
    func postBodyIsRecorded() async throws {
        try await withStubScope { scope in
            let sent = UserClient.User(id: 9, name: "Grace")
            await scope.stub(.post("https://api.example.com/users"), with: .json(sent, status: 201))
            let created = try await UserClient().create(sent)
            #expect(created == sent)
            let requests = await scope.requests
            #expect(requests.count == 1)
            #expect(requests.first?.method == "POST")
            #expect(requests.first?.url.absoluteString == "https://api.example.com/users")
            #expect(requests.first?.header("content-type") == "application/json")
            #expect(try requests.first?.decodeJSON(UserClient.User.self) == sent)
        }
    }

    @Test("a body sent as httpBodyStream is drained into the record")
    func bodyStreamIsDrained() async throws {
        try await withStubScope { scope in
            await scope.stub(.put("https://api.example.com/blob"), with: .status(204))
            var request = URLRequest(url: URL(string: "https://api.example.com/blob")!)
            request.httpMethod = "PUT"
            let payload = Data((0..<50_000).map { UInt8($0 % 251) })
            request.httpBodyStream = InputStream(data: payload)
            let (_, response) = try await URLSession.stubbed.data(for: request)
            #expect(HTTPURLResponse.status(of: response) == 204)
            #expect(await scope.requests.first?.body == payload)
        }
    }

    @Test("a request without a body records nil, and requests keep their order and headers")
    func orderAndHeaders() async throws {
        try await withStubScope { scope in
            await scope.stub(.any("https://api.example.com/{thing}"), with: .status(200))
            for (index, method) in ["GET", "DELETE", "PATCH"].enumerated() {
                var request = URLRequest(url: URL(string: "https://api.example.com/\(index)")!)
                request.httpMethod = method
                request.setValue("\(index)", forHTTPHeaderField: "X-Index")
                _ = try await URLSession.stubbed.data(for: request)
            }
            let requests = await scope.requests
            #expect(requests.map(\.method) == ["GET", "DELETE", "PATCH"])
            #expect(requests.map { $0.header("x-index") } == ["0", "1", "2"])
            #expect(requests.first?.body == nil)
            #expect(requests.map(\.pathParameters) == [["thing": "0"], ["thing": "1"], ["thing": "2"]])
            #expect(await scope.requests(matching: .delete("/1")).count == 1)
        }
    }

    /// Sends `POST https://api.example.com/events` with `body` through the stubbed session.
    private func postEvent(_ body: String) async throws {
        var request = URLRequest(url: URL(string: "https://api.example.com/events")!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        _ = try await URLSession.stubbed.data(for: request)
    }

    @Test("a background request that arrives while the test waits for it is returned to the waiter")
    func awaitsABackgroundRequest() async throws {
        try await withStubScope { scope in
            await scope.stub(.post("https://api.example.com/events"), with: .status(202))
            let sender = Task {
                await waitUntilWaiting(in: scope) // Sent only once the test waits.
                try await postEvent("launched")
            }
            let event = try await scope.waitForRequest(matching: .post("https://api.example.com/events"), timeout: .patience)
            #expect(event.description == "POST https://api.example.com/events")
            #expect(event.bodyText == "launched")
            try await sender.value
            #expect(await scope.requests.count == 1)
        }
    }

    @Test("several background requests that arrive while the test waits are returned together, in order")
    func awaitsSeveralRequests() async throws {
        try await withStubScope { scope in
            await scope.stub(.post("https://api.example.com/events"), with: .status(202))
            let sender = Task {
                await waitUntilWaiting(in: scope)
                for index in 0..<3 {
                    try await postEvent("event \(index)")
                }
            }
            let events = try await scope.waitForRequests(matching: .post("https://api.example.com/events"), count: 3, timeout: .patience)
            #expect(events.map(\.bodyText) == ["event 0", "event 1", "event 2"])
            try await sender.value
        }
    }

    @Test("a wait for more requests than arrive times out with the whole message: how many of how many arrived, in which scope, and what it received")
    func partialWaitTimesOut() async throws {
        let opened = #line + 1
        try await withStubScope("events") { scope in
            await scope.stub(.post("https://api.example.com/events"), with: .status(202))
            await scope.stub(.get("https://api.example.com/other"), with: .status(200))
            for index in 0..<3 {
                try await postEvent("event \(index)")
            }
            _ = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/other")!)
            let error = await #expect(throws: RequestWaitError.self) {
                _ = try await scope.waitForRequests(matching: .post("https://api.example.com/events"), count: 5, timeout: .milliseconds(30))
            }
            #expect(error?.reason == .timedOut)
            #expect(error?.scope == scope)
            #expect(error?.arrived.map(\.body) == (0..<3).map { Data("event \($0)".utf8) })
            #expect(error?.received.map(\.url.path) == ["/events", "/events", "/events", "/other"])
            #expect(error.map { masked($0.description) } == "URLStubs: 3 of 5 requests matching POST https://api.example.com/events arrived in scope #N \"events\" (opened at URLStubsTests/RequestLogTests.swift:\(opened)) within 0.03 seconds; it received: POST https://api.example.com/events, POST https://api.example.com/events, POST https://api.example.com/events, GET https://api.example.com/other.")
        }
    }

    @Test("a wait for requests matched by a predicate runs the predicate once for each request already logged")
    func waitRunsItsPredicateOncePerRequest() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/items/{id}"), with: .status(200))
            for index in 0..<2 {
                _ = try await scope.data(from: URL(string: "https://api.example.com/items/\(index)")!)
            }
            let calls = Locked(0)
            let counted = RequestPattern.predicate("counted") { _ in
                calls.withLock { $0 += 1 }
                return true
            }
            let error = await #expect(throws: RequestWaitError.self) {
                _ = try await scope.waitForRequests(matching: counted, count: 3, timeout: .milliseconds(30))
            }
            #expect(error?.reason == .timedOut)
            #expect(calls.withLock { $0 } == 2)
        }
    }

    @Test("waiting for a request that never comes times out with the whole message, listing what arrived")
    func waitTimesOut() async throws {
        let opened = #line + 1
        try await withStubScope { scope in
            await scope.stub(.anyRequest, with: .status(200))
            _ = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/other")!)
            let error = await #expect(throws: RequestWaitError.self) {
                _ = try await scope.waitForRequest(matching: .get("https://api.example.com/wanted"), timeout: .milliseconds(50))
            }
            #expect(error.map { masked($0.description) } == "URLStubs: no request matching GET https://api.example.com/wanted arrived in scope #N (opened at URLStubsTests/RequestLogTests.swift:\(opened)) within 0.05 seconds; it received: GET https://api.example.com/other.")
        }
    }

    @Test("waiting in a scope that received nothing times out saying so")
    func waitInAnEmptyScopeTimesOut() async throws {
        let opened = #line + 1
        try await withStubScope { scope in
            let error = await #expect(throws: RequestWaitError.self) {
                _ = try await scope.waitForRequest(timeout: .zero)
            }
            #expect(error.map { masked($0.description) } == "URLStubs: no request matching ANY any URL arrived in scope #N (opened at URLStubsTests/RequestLogTests.swift:\(opened)) within 0.0 seconds; it received no requests.")
        }
    }

    @Test("a wait still running when its scope ends fails with scopeEnded, naming the scope and the pattern")
    func waitFailsWhenTheScopeEnds() async throws {
        let opened = #line + 1
        let waiter = try await withStubScope("short") { scope in
            let waiter = Task {
                try await scope.waitForRequest(matching: .get("https://api.example.com/never"), timeout: .seconds(3_600))
            }
            await waitUntilWaiting(in: scope)
            return waiter
        }
        let error = await #expect(throws: RequestWaitError.self) { _ = try await waiter.value }
        #expect(error?.reason == .scopeEnded)
        #expect(error?.pattern.description == "GET https://api.example.com/never")
        #expect(error?.expected == 1)
        #expect(error?.arrived.isEmpty == true)
        #expect(error?.timeout == .seconds(3_600))
        #expect(masked(error?.description ?? "") == "URLStubs: scope #N \"short\" (opened at URLStubsTests/RequestLogTests.swift:\(opened)) ended while waiting for a request matching GET https://api.example.com/never.")
    }

    @Test("a wait that starts after its scope ended fails at once with scopeEnded")
    func waitAfterTheScopeEnded() async throws {
        let ended = try await withStubScope { scope in scope }
        let error = await #expect(throws: RequestWaitError.self) {
            _ = try await ended.waitForRequest(timeout: .seconds(3_600))
        }
        #expect(error?.description == "URLStubs: \(ended) ended while waiting for a request matching ANY any URL.")
    }

    @Test("a cancelled wait fails with cancelled, naming the pattern")
    func cancelledWait() async throws {
        try await withStubScope { scope in
            let waiter = Task {
                try await scope.waitForRequest(matching: .delete("https://api.example.com/x"), timeout: .seconds(3_600))
            }
            await waitUntilWaiting(in: scope)
            waiter.cancel()
            let error = await #expect(throws: RequestWaitError.self) { _ = try await waiter.value }
            #expect(error?.description == "URLStubs: the wait for a request matching DELETE https://api.example.com/x was cancelled.")
        }
    }

    @Test("a wait's timer is cancelled when the wait ends, also when a request ended the wait before its timer was armed")
    func timerEndsWithItsWait() async throws {
        for endsFirst in [false, true] {
            let timer = Task { _ = await sleepUnlessCancelled(for: .patience) }
            let requests = try await withCheckedThrowingContinuation { continuation in
                let waiter = RequestWaiter(pattern: .get("https://api.example.com/x"), count: 1, collected: [], wait: .patience, continuation: continuation)
                if endsFirst {
                    waiter.resume(with: .success([]))
                    waiter.arm(timer)
                } else {
                    waiter.arm(timer)
                    #expect(!timer.isCancelled)
                    waiter.resume(with: .success([]))
                }
            }
            #expect(requests.isEmpty)
            #expect(timer.isCancelled, "the timer outlived its wait (ended \(endsFirst ? "before" : "after") it was armed)")
            await timer.value
        }
    }

    @Test("a wait given no timeout waits 30 seconds at most, for one request or several (said by the error of a cancelled wait)")
    func defaultTimeout() async throws {
        try await withStubScope { scope in
            let one = Task { try await scope.waitForRequest(matching: .delete("https://api.example.com/one")) }
            let several = Task { try await scope.waitForRequests(matching: .delete("https://api.example.com/several"), count: 2) }
            await waitUntilWaiting(2, in: scope)
            one.cancel()
            several.cancel()
            let oneError = await #expect(throws: RequestWaitError.self) { _ = try await one.value }
            let severalError = await #expect(throws: RequestWaitError.self) { _ = try await several.value }
            #expect(oneError?.timeout == .seconds(30))
            #expect(severalError?.timeout == .seconds(30))
        }
    }
}
