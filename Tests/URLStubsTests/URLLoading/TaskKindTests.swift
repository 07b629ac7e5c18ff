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
            #expect(error?.code == .resourceUnavailable)
            #expect(error?.localizedDescription == "URLStubs: GET https://api.example.com/file was made with a download task, which Foundation on Linux cannot complete through a URL protocol; use data(for:) or a data task instead.")
        }
    }

    @Test("a WebSocket task fails with a clear error instead of waiting forever on Linux: Foundation's own where its libcurl has no WebSockets, else URLStubs'")
    func webSocketTaskFailsClearly() async throws {
        try await withStubScope { scope in
            let task = URLSession.stubbed.webSocketTask(with: URL(string: "wss://api.example.com/socket")!)
            task.resume()
            let error = await #expect(throws: URLError.self) { _ = try await task.receive() }
            switch error?.code {
            case .unsupportedURL?:
                // Foundation refused the task before any URL protocol saw it.
                #expect(error?.localizedDescription == "WebSockets not supported by libcurl")
            default:
                #expect(error?.code == .resourceUnavailable)
                #expect(error?.localizedDescription == "URLStubs: GET wss://api.example.com/socket was made with a WebSocket task, which Foundation on Linux cannot complete through a URL protocol; use data(for:) or a data task instead.")
            }
            // Nothing was answered: the scope logged no request it could have stubbed.
            #expect(await scope.exchanges.allSatisfy { if case .failure = $0.outcome { true } else { false } })
        }
    }

    /// A task delegate that counts the calls Foundation makes to it.
    private final class CountingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // @unchecked: `calls` is only touched under `lock`.
        private let lock = NSLock()
        private var count = 0
        var calls: Int { lock.withLock { count } }
        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) { lock.withLock { count += 1 } }
        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) { lock.withLock { count += 1 } }
    }

    /// The message a GET for `url` made with a task delegate of the type named
    /// `delegate` is refused with on Linux.
    private static func taskDelegateRefusal(_ url: URL, delegate: String) -> String {
        "URLStubs: GET \(url) was made with a task delegate (\(delegate)), which Foundation on Linux never calls: only the session's delegate gets a task's response, data and completion there. It was failed rather than left waiting. Give the delegate to the session instead: URLSession(configuration: .stubbed, delegate: yourDelegate, delegateQueue: nil), or use data(for:) or a completion handler."
    }

    @Test("on Linux a data task with a task delegate, which Foundation would never call, fails at once saying to give the delegate to the session; the session's delegate streams the same stub")
    func taskDelegateIsRefused() async throws {
        let url = URL(string: "https://api.example.com/stream")!
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(["a", "b"].map { Data($0.utf8) }))
            let taskDelegate = CountingDelegate()
            let task = reader.session.dataTask(with: url)
            task.delegate = taskDelegate
            let refused = await reader.read(task)
            #expect((refused.error as? URLError)?.localizedDescription == Self.taskDelegateRefusal(url, delegate: "CountingDelegate"))
            #expect(refused.chunks.isEmpty)
            #expect(taskDelegate.calls == 0)
            #expect(await scope.requests.isEmpty, "nothing was resolved or logged")
            // The recipe: the same stream, through the session's delegate.
            let streamed = await reader.read(URLRequest(url: url))
            #expect(streamed.texts == ["a", "b"])
            #expect(streamed.error == nil)
        }
    }

    @Test("on Linux a session's later tasks are told apart as its first was: after its own delegate got a stream, a task delegate is still refused, and the next task streams again")
    func taskDelegateIsRefusedAfterTheSessionWasSeen() async throws {
        let url = URL(string: "https://api.example.com/stream")!
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(["a", "b"].map { Data($0.utf8) }))
            let first = await reader.read(URLRequest(url: url))
            let task = reader.session.dataTask(with: url)
            task.delegate = CountingDelegate()
            let refused = await reader.read(task)
            let last = await reader.read(URLRequest(url: url))
            #expect(first.texts == ["a", "b"])
            #expect((refused.error as? URLError)?.localizedDescription == Self.taskDelegateRefusal(url, delegate: "CountingDelegate"))
            #expect(last.texts == ["a", "b"])
            #expect(await scope.requests.count == 2, "the refused task was neither resolved nor logged")
        }
    }

    @Test("on Linux a task given another session's delegate as its own is refused: that delegate is not its session's, and Foundation would not call it")
    func anotherSessionsDelegateIsATaskDelegate() async throws {
        let url = URL(string: "https://api.example.com/stream")!
        let readerA = ChunkReader()
        let readerB = ChunkReader()
        defer {
            readerA.close()
            readerB.close()
        }
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(["a", "b"].map { Data($0.utf8) }))
            #expect(await readerA.read(URLRequest(url: url)).texts == ["a", "b"])
            #expect(await readerB.read(URLRequest(url: url)).texts == ["a", "b"])
            let task = readerB.session.dataTask(with: url)
            task.delegate = try #require(readerA.session.delegate as? URLSessionTaskDelegate)
            let refused = await readerB.read(task)
            #expect((refused.error as? URLError)?.localizedDescription == Self.taskDelegateRefusal(url, delegate: "Forwarder"))
            #expect(refused.chunks.isEmpty)
        }
    }

    @Test("on Linux a task delegate on a session without one (URLSession.stubbed) is refused too, before anything is resolved or logged (Foundation keeps no error on such a task: the message goes to standard error)")
    func taskDelegateWithoutSessionDelegate() async throws {
        let url = URL(string: "https://api.example.com/stream")!
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .chunks(["a", "b"].map { Data($0.utf8) }))
            let taskDelegate = CountingDelegate()
            let task = URLSession.stubbed.dataTask(with: url)
            task.delegate = taskDelegate
            task.resume()
            try await eventually { task.state == .completed } // No callback says when.
            #expect(task.state == .completed)
            #expect(await scope.requests.isEmpty, "refused before it was resolved or logged")
            #expect(taskDelegate.calls == 0)
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

    /// A completion-handler load whose outcome a test awaits.
    private final class Load: Sendable {
        let task: URLSessionDataTask
        private let outcome = Shared<String?>(nil)
        private let done = Latch()

        init(_ url: String) {
            let outcome = self.outcome
            let done = self.done
            task = URLSession.stubbed.dataTask(with: URL(string: url)!) { data, _, error in
                outcome.value = error.map { "error \($0.localizedDescription)" } ?? String(decoding: data ?? Data(), as: UTF8.self)
                done.open()
            }
        }

        /// The body, or `error <description>`, once the completion handler ran.
        var result: String? {
            get async {
                await done.wait()
                return outcome.value
            }
        }

        var hasFinished: Bool {
            done.isOpen
        }
    }

    /// Registers a stub for `url` computed once `gate` opens, opening `returned`
    /// right before the closure returns its response.
    private func stubGated(_ scope: StubScope, _ url: String, by gate: Latch, returned: Latch = Latch(), response: StubResponse) async {
        await scope.stub(.get(url), times: .once) { _ in
            await gate.wait()
            returned.open()
            return response
        }
    }

    @Test("a task suspended and resumed while its answer is pending is answered once, after its delay, with one use")
    func suspendAndResumeWhileDelayed() async throws {
        try await withStubScope { scope in
            let url = "https://api.example.com/paused"
            let answerMayGo = Latch()
            await stubGated(scope, url, by: answerMayGo, response: .text("after pause").delayed(by: .milliseconds(5)))
            let load = Load(url)
            load.task.resume()
            _ = try await scope.waitForRequest(timeout: .patience)
            load.task.suspend()
            load.task.resume()
            #expect(!load.hasFinished) // Both landed before the answer could exist.
            answerMayGo.open()
            #expect(await load.result == "after pause")
            #expect(await scope.requests.count == 1)
        }
    }

    @Test("a task whose computed answer becomes ready while it is suspended gets it when resumed, with one use")
    func answerReadyWhileSuspended() async throws {
        try await withStubScope { scope in
            let url = "https://api.example.com/computed"
            let answerMayGo = Latch()
            let returned = Latch()
            await stubGated(scope, url, by: answerMayGo, returned: returned, response: .text("computed"))
            let load = Load(url)
            load.task.resume()
            _ = try await scope.waitForRequest(timeout: .patience)
            load.task.suspend()
            answerMayGo.open()
            await returned.wait()
            #expect(!load.hasFinished)
            load.task.resume()
            #expect(await load.result == "computed")
            #expect(await scope.requests.count == 1)
        }
    }

    @Test("a request suspended and resumed still fails when its scope ends, with the abandoned-request message", .timeLimit(.minutes(1)))
    func suspendedRequestFailsAtScopeEnd() async throws {
        let url = "https://api.example.com/slow"
        let load = Shared<Load?>(nil)
        let opened = #line + 1
        try await withStubScope { scope in
            await scope.stub(.get(url), with: .text("late").delayed(by: .seconds(3_600)))
            load.value = Load(url)
            load.value?.task.resume()
            _ = try await scope.waitForRequest(timeout: .patience)
            load.value?.task.suspend()
            load.value?.task.resume()
        }
        // Only the scope's end can end an hour's delay within the time limit.
        let result = await load.value?.result
        #expect(result.map(masked) == "error URLStubs: GET \(url) was still waiting for its response when scope #N (opened at URLStubsTests/TaskKindTests.swift:\(opened)) ended; await it inside the scope, or cancel it.")
    }

    @Test("cancelling a request whose computed response awaits another request fails both cleanly", .timeLimit(.minutes(1)))
    func cancelDuringNestedRequest() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/inner"), with: .text("inner").delayed(by: .seconds(3_600)))
            let inner = Shared<URLError?>(nil)
            await scope.stub(.get("https://api.example.com/outer")) { _ in
                do {
                    return .data(try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/inner")!).0)
                } catch {
                    inner.value = error as? URLError
                    throw error
                }
            }
            let outcome = Shared<(any Error)?>(nil)
            let (finished, signal) = AsyncStream<Void>.makeStream()
            let task = URLSession.stubbed.dataTask(with: URL(string: "https://api.example.com/outer")!) { _, _, error in
                outcome.value = error
                signal.yield()
            }
            task.resume()
            _ = try await scope.waitForRequests(count: 2, timeout: .patience)
            task.cancel()
            for await _ in finished { break }
            #expect(urlError(outcome.value)?.code == .cancelled)
            #expect(await scope.requests.map(\.url.path) == ["/outer", "/inner"])
        }
    }

    @Test("a task resumed twice is answered once")
    func resumedTwice() async throws {
        try await withStubScope { scope in
            let stub = await scope.stub(.get("https://api.example.com/twice"), with: .text("once"))
            let body = Shared("")
            // Foundation on Linux stops the process when a second resume() lands
            // after the task's answer but before it is marked completed, which its
            // delegate queue does once the completion handler returns: that queue
            // is held until both resumes have returned. A task whose answer
            // is made inside startLoading() may otherwise meet that window.
            let delegateQueue = OperationQueue()
            delegateQueue.maxConcurrentOperationCount = 1
            delegateQueue.isSuspended = true
            let session = URLSession(configuration: .stubbed, delegate: nil, delegateQueue: delegateQueue)
            defer { session.finishTasksAndInvalidate() }
            // A second completion would resume this continuation twice, which traps.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let task = session.dataTask(with: URL(string: "https://api.example.com/twice")!) { data, _, _ in
                    body.value = String(decoding: data ?? Data(), as: UTF8.self)
                    continuation.resume()
                }
                task.resume()
                task.resume()
                delegateQueue.isSuspended = false
            }
            #expect(body.value == "once")
            #expect(await scope.requests.count == 1)
            #expect(await stub.hitCount == 1)
        }
    }
}
