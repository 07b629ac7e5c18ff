#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Task kinds")
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

    @Test("a task suspended and resumed while its answer is delayed is answered once, with one use")
    func suspendAndResume() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/paused"), with: .text("after pause").delayed(by: .milliseconds(100)), times: .once)
            let body = Shared("")
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let task = URLSession.stubbed.dataTask(with: URL(string: "https://api.example.com/paused")!) { data, _, error in
                    body.value = error.map { "error \($0)" } ?? String(decoding: data ?? Data(), as: UTF8.self)
                    continuation.resume()
                }
                task.resume()
                Thread.sleep(forTimeInterval: 0.02)
                task.suspend()
                Thread.sleep(forTimeInterval: 0.02)
                task.resume()
            }
            #expect(body.value == "after pause")
            #expect(await scope.requests.count == 1)
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
