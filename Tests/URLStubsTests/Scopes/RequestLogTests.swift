#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

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

    @Test("a background request can be awaited until it arrives")
    func awaitsABackgroundRequest() async throws {
        try await withStubScope { scope in
            await scope.stub(.post("https://api.example.com/events"), with: .status(202))
            let sender = Task {
                try await Task.sleep(for: .milliseconds(30))
                var request = URLRequest(url: URL(string: "https://api.example.com/events")!)
                request.httpMethod = "POST"
                request.httpBody = Data("launched".utf8)
                _ = try await URLSession.stubbed.data(for: request)
            }
            let event = try await scope.waitForRequest(matching: .post("https://api.example.com/events"), timeout: .seconds(5))
            #expect(event.bodyText == "launched")
            try await sender.value
        }
    }

    @Test("several background requests can be awaited together, and a timeout says how many arrived")
    func awaitsSeveralRequests() async throws {
        try await withStubScope { scope in
            await scope.stub(.post("https://api.example.com/events"), with: .status(202))
            let sender = Task {
                for index in 0..<3 {
                    try await Task.sleep(for: .milliseconds(10))
                    var request = URLRequest(url: URL(string: "https://api.example.com/events")!)
                    request.httpMethod = "POST"
                    request.httpBody = Data("event \(index)".utf8)
                    _ = try await URLSession.stubbed.data(for: request)
                }
            }
            let events = try await scope.waitForRequests(matching: .post("https://api.example.com/events"), count: 3, timeout: .seconds(5))
            #expect(events.map(\.bodyText) == ["event 0", "event 1", "event 2"])
            try await sender.value
            let error = await #expect(throws: RequestWaitError.self) {
                _ = try await scope.waitForRequests(matching: .post("https://api.example.com/events"), count: 5, timeout: .milliseconds(30))
            }
            #expect(error?.description.hasPrefix("URLStubs: 3 of 5 requests matching POST https://api.example.com/events arrived in scope #") == true)
        }
    }

    @Test("waiting for a request that never comes times out with a message listing what arrived")
    func waitTimesOut() async throws {
        try await withStubScope { scope in
            await scope.stub(.anyRequest, with: .status(200))
            _ = try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/other")!)
            let error = await #expect(throws: RequestWaitError.self) {
                _ = try await scope.waitForRequest(matching: .get("https://api.example.com/wanted"), timeout: .milliseconds(50))
            }
            #expect(error?.description.contains("no request matching GET https://api.example.com/wanted arrived") == true)
            #expect(error?.description.contains("it received: GET https://api.example.com/other") == true)
        }
    }
}
