#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Task kinds", .timeLimit(.minutes(1)))
struct TaskKindTests {
    #if canImport(FoundationNetworking)
    @Test("a download task fails with a clear error instead of crashing Foundation on Linux")
    func downloadTaskFailsClearly() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/file"), with: .text("content"))
            let error = await #expect(throws: URLError.self) {
                _ = try await URLSession.stubbed.download(from: URL(string: "https://api.example.com/file")!)
            }
            #expect(error?.localizedDescription.contains("was made with a download task, which Foundation on Linux cannot complete through a URL protocol") == true)
        }
    }
    #endif

    @Test("an upload task is answered by the stub, and its body is invisible on Linux")
    func uploadTaskIsAnswered() async throws {
        try await withStubScope { scope in
            await scope.stub(.post("https://api.example.com/upload"), with: .status(201))
            var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
            request.httpMethod = "POST"
            let (_, response) = try await URLSession.stubbed.upload(for: request, from: Data("payload".utf8))
            #expect(HTTPURLResponse.status(of: response) == 201)
            #if canImport(FoundationNetworking)
            #expect(await scope.requests.first?.body == nil)
            #endif
        }
    }

    /// Loads `url` with a completion-handler task that is suspended after `pause`
    /// seconds and resumed `pause` seconds later; returns the body, or the error.
    private func loadPausingOnce(_ url: String, pause: TimeInterval) async -> String {
        let body = Shared("")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let task = URLSession.stubbed.dataTask(with: URL(string: url)!) { data, _, error in
                body.value = error.map { "error \($0)" } ?? String(decoding: data ?? Data(), as: UTF8.self)
                continuation.resume()
            }
            task.resume()
            Thread.sleep(forTimeInterval: pause)
            task.suspend()
            Thread.sleep(forTimeInterval: pause)
            task.resume()
        }
        return body.value
    }

    @Test("a task suspended and resumed while its answer is delayed is answered once, with one use")
    func suspendAndResume() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/paused"), with: .text("after pause").delayed(by: .milliseconds(100)), times: .once)
            let body = await loadPausingOnce("https://api.example.com/paused", pause: 0.02)
            #expect(body == "after pause")
            #expect(await scope.requests.count == 1)
        }
    }

    @Test("a suspend while a computed response runs still delivers it on resume, with one use")
    func suspendDuringComputedResponse() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/computed"), times: .once) { _ in
                try await Task.sleep(for: .milliseconds(150))
                return .text("computed")
            }
            let body = await loadPausingOnce("https://api.example.com/computed", pause: 0.05)
            #expect(body == "computed")
            #expect(await scope.requests.count == 1)
        }
    }

    @Test("a request suspended and resumed still fails promptly when its scope ends", .timeLimit(.minutes(1)))
    func suspendedRequestFailsAtScopeEnd() async throws {
        let started = ContinuousClock.now
        let outcome = Shared<String?>(nil)
        let (finished, signal) = AsyncStream<Void>.makeStream()
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/slow"), with: .text("late").delayed(by: .seconds(30)))
            let task = URLSession.stubbed.dataTask(with: URL(string: "https://api.example.com/slow")!) { data, _, error in
                outcome.value = error?.localizedDescription ?? String(decoding: data ?? Data(), as: UTF8.self)
                signal.yield()
            }
            task.resume()
            _ = try await scope.waitForRequest(timeout: .seconds(5))
            task.suspend()
            try await Task.sleep(for: .milliseconds(20))
            task.resume()
            try await Task.sleep(for: .milliseconds(20))
        }
        for await _ in finished { break }
        #expect(outcome.value?.contains("was still waiting for its response when scope #") == true)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("cancelling a request whose computed response awaits another request fails both cleanly", .timeLimit(.minutes(1)))
    func cancelDuringNestedRequest() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/inner"), with: .text("inner").delayed(by: .seconds(30)))
            await scope.stub(.get("https://api.example.com/outer")) { _ in
                .data(try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/inner")!).0)
            }
            let outcome = Shared<(any Error)?>(nil)
            let (finished, signal) = AsyncStream<Void>.makeStream()
            let task = URLSession.stubbed.dataTask(with: URL(string: "https://api.example.com/outer")!) { _, _, error in
                outcome.value = error
                signal.yield()
            }
            task.resume()
            _ = try await scope.waitForRequests(count: 2, timeout: .seconds(5))
            task.cancel()
            for await _ in finished { break }
            #expect(urlError(outcome.value)?.code == .cancelled)
        }
    }

    @Test("a task resumed twice is answered once")
    func resumedTwice() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/twice"), with: .text("once"))
            let calls = Shared(0)
            let body = Shared("")
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let task = URLSession.stubbed.dataTask(with: URL(string: "https://api.example.com/twice")!) { data, _, _ in
                    calls.value += 1
                    body.value = String(decoding: data ?? Data(), as: UTF8.self)
                    continuation.resume()
                }
                task.resume()
                task.resume()
            }
            try await Task.sleep(for: .milliseconds(50))
            #expect(calls.value == 1)
            #expect(body.value == "once")
            #expect(await scope.requests.count == 1)
        }
    }
}
