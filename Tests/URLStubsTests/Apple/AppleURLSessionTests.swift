#if canImport(ObjectiveC)
import Foundation
import Testing
@testable import URLStubs

/// What can only be proven on a Mac or an iOS simulator: Apple's URL loading
/// calls the protocol on its own threads, and the scope still routes by task.
/// Run with `swift test` on macOS.
@Suite("Apple platforms: URLSession through the resume hook")
struct AppleURLSessionTests {
    private func url(_ path: String) -> URL {
        URL(string: "https://api.example.com\(path)")!
    }

    @Test("the resume hook covers every class of a data task that implements resume")
    func hookCoversTheTaskClassChain() {
        StubInterception.prepare()
        #expect(ResumeHook.problem == nil)
        #expect(!ResumeHook.hookedClassNames.isEmpty)
    }

    @Test("64 parallel scopes through URLSession.stubbed with async data(for:) each get their own body", arguments: 0..<64)
    func parallelAsync(index: Int) async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url("/shared")), with: .text("scope \(index)"))
            let (data, _) = try await URLSession.stubbed.data(for: URLRequest(url: url("/shared")))
            #expect(String(decoding: data, as: UTF8.self) == "scope \(index)")
        }
    }

    @Test("64 parallel scopes with completion handlers each get their own body", arguments: 0..<64)
    func parallelCompletionHandlers(index: Int) async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url("/shared")), with: .text("scope \(index)"))
            let body: String = await withCheckedContinuation { continuation in
                URLSession.stubbed.dataTask(with: url("/shared")) { data, _, error in
                    continuation.resume(returning: error.map { "error \($0)" } ?? String(decoding: data ?? Data(), as: UTF8.self))
                }.resume()
            }
            #expect(body == "scope \(index)")
        }
    }

    @Test("64 parallel scopes with bytes(for:) each get their own body", arguments: 0..<64)
    func parallelBytes(index: Int) async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url("/shared")), with: .text("scope \(index)"))
            let (bytes, _) = try await URLSession.stubbed.bytes(for: URLRequest(url: url("/shared")))
            var collected = Data()
            for try await byte in bytes {
                collected.append(byte)
            }
            #expect(String(decoding: collected, as: UTF8.self) == "scope \(index)")
        }
    }

    @Test("a request resumed inside a nested scope sees the enclosing stubs, and its own win")
    func nestedScope() async throws {
        try await withStubScope { outer in
            await outer.stub(.get(url("/a")), with: .text("outer a"))
            await outer.stub(.get(url("/b")), with: .text("outer b"))
            try await withStubScope { inner throws in
                await inner.stub(.get(url("/b")), with: .text("inner b"))
                let a = try await URLSession.stubbed.data(from: url("/a")).0
                let b = try await URLSession.stubbed.data(from: url("/b")).0
                #expect(String(decoding: a, as: UTF8.self) == "outer a")
                #expect(String(decoding: b, as: UTF8.self) == "inner b")
            }
        }
    }

    @Test("a task created in one scope and resumed in another belongs to the second")
    func createdInOneResumedInAnother() async throws {
        let box = TaskBox()
        try await withStubScope { first in
            await first.stub(.get(url("/who")), with: .text("first"))
            box.task = URLSession.stubbed.dataTask(with: url("/who")) { data, _, _ in
                box.finish(String(decoding: data ?? Data(), as: UTF8.self))
            }
        }
        let body = try await withStubScope { second in
            await second.stub(.get(url("/who")), with: .text("second"))
            box.task?.resume()
            return await box.result()
        }
        #expect(body == "second")
    }

    @Test("URLSession.shared is answered by stubs once interceptSharedSession() is called")
    func sharedSessionOptIn() async throws {
        try StubInterception.interceptSharedSession()
        try await withStubScope { scope in
            await scope.stub(.get(url("/shared-session")), with: .json(["ok": true]))
            let (data, response) = try await URLSession.shared.data(from: url("/shared-session"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == #"{"ok":true}"#)
        }
    }

    @Test("sessions from .default configurations are stubbed once interceptDefaultConfigurations() is called")
    func defaultConfigurationsOptIn() async throws {
        try StubInterception.interceptDefaultConfigurations()
        #expect(URLSessionConfiguration.default.protocolClasses?.first == StubURLProtocol.self)
        let session = URLSession(configuration: .default)
        try await withStubScope { scope in
            await scope.stub(.get(url("/own-session")), with: .text("stubbed"))
            let body = try await session.data(from: url("/own-session")).0
            #expect(String(decoding: body, as: UTF8.self) == "stubbed")
        }
    }

    @Test("a POST body, which reaches the protocol as a stream, is recorded whole")
    func bodyFromStream() async throws {
        try await withStubScope { scope in
            await scope.stub(.post(url("/upload")), with: .status(201))
            var request = URLRequest(url: url("/upload"))
            request.httpMethod = "POST"
            let payload = Data((0..<100_000).map { UInt8($0 % 251) })
            request.httpBody = payload
            _ = try await URLSession.stubbed.data(for: request)
            #expect(await scope.requests.first?.body == payload)
        }
    }

    @Test("a cancelled delayed request fails with URLError.cancelled and leaves nothing in flight")
    func cancelLeavesNothingInFlight() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url("/slow")), with: .text("late").delayed(by: .seconds(30)))
            let request = Task { try await URLSession.stubbed.data(from: url("/slow")) }
            _ = try await scope.waitForRequest(timeout: .patience)
            request.cancel()
            let error = await #expect(throws: URLError.self) { try await request.value }
            #expect(error?.code == .cancelled)
            // Apple calls stopLoading() on a thread of its own, in its own time: poll.
            try await eventually { inFlightCount(in: scope) == 0 }
            #expect(inFlightCount(in: scope) == 0)
        }
    }

    @Test("a delayed answer arrives, in order, on Apple's client thread")
    func delayedAnswer() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url("/later")), with: .text("later").delayed(by: .milliseconds(50)))
            let (data, response) = try await URLSession.stubbed.data(from: url("/later"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "later")
        }
    }
}

/// A task created in one scope and resumed in another, and its result.
private final class TaskBox: @unchecked Sendable {
    // @unchecked: `task` is set before it is resumed; `body` and `waiter` are
    // touched only while `lock` is held.
    var task: URLSessionDataTask?
    private let lock = NSLock()
    private var body: String?
    private var waiter: CheckedContinuation<String, Never>?

    func finish(_ value: String) {
        lock.lock()
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: value)
            return
        }
        body = value
        lock.unlock()
    }

    func result() async -> String {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let body {
                lock.unlock()
                continuation.resume(returning: body)
                return
            }
            waiter = continuation
            lock.unlock()
        }
    }
}
#endif
