#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Cancellation and scope end", .timeLimit(.minutes(1)))
struct CancellationTests {
    @Test("cancelling the calling task cancels a delayed request promptly with URLError.cancelled")
    func cancellingTheCallerCancelsTheRequest() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/slow"), with: .text("late").delayed(by: .seconds(30)))
            let started = ContinuousClock.now
            let request = Task {
                try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/slow")!)
            }
            _ = try await scope.waitForRequest(timeout: .seconds(5))
            request.cancel()
            let error = await #expect(throws: URLError.self) { try await request.value }
            #expect(error?.code == .cancelled)
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    @Test("a storm of hundreds of cancelled requests neither crashes nor hangs", .timeLimit(.minutes(1)))
    func cancellationStorm() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/fast"), with: .text("fast"))
            await scope.stub(.get("https://api.example.com/slow"), with: .text("slow").delayed(by: .milliseconds(2)))
            let outcomes = await withTaskGroup(of: String.self) { group in
                for index in 0..<400 {
                    group.addTask {
                        let path = index.isMultiple(of: 2) ? "fast" : "slow"
                        let task = Task { try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/\(path)")!) }
                        if index % 3 != 0 { task.cancel() }
                        do {
                            let (data, _) = try await task.value
                            return String(decoding: data, as: UTF8.self)
                        } catch let error as URLError where error.code == .cancelled {
                            return "cancelled"
                        } catch {
                            return "unexpected \(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(outcomes.count == 400)
            #expect(outcomes.allSatisfy { ["fast", "slow", "cancelled"].contains($0) })
            #expect(outcomes.contains("cancelled"))
        }
    }

    @Test("cancelling a completion-handler task while its response is delayed reports cancelled once")
    func cancellingADataTask() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/slow"), with: .status(200).delayed(by: .seconds(30)))
            let result = await withCheckedContinuation { (continuation: CheckedContinuation<(any Error)?, Never>) in
                let task = URLSession.stubbed.dataTask(with: URL(string: "https://api.example.com/slow")!) { _, _, error in
                    continuation.resume(returning: error)
                }
                task.resume()
                task.cancel()
            }
            #expect(urlError(result)?.code == .cancelled)
        }
    }

    @Test("a request still in flight when its scope ends fails promptly with a clear error")
    func inFlightRequestFailsWhenScopeEnds() async throws {
        let started = ContinuousClock.now
        let pending = try await withStubScope("short-lived") { scope in
            await scope.stub(.get("https://api.example.com/slow"), with: .text("never").delayed(by: .seconds(30)))
            let pending = Task {
                try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/slow")!)
            }
            _ = try await scope.waitForRequest(timeout: .seconds(5))
            return pending
        }
        let error = await #expect(throws: URLError.self) { try await pending.value }
        #expect(error?.localizedDescription.contains("was still waiting for its response when scope #") == true)
        #expect(error?.localizedDescription.contains("\"short-lived\"") == true)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("a computed response still running when its scope ends fails the request, and its task is cancelled")
    func computedResponseIsCancelledWhenScopeEnds() async throws {
        let (cancelled, signal) = AsyncStream<Bool>.makeStream()
        let pending = try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/computed")) { _ in
                do {
                    try await Task.sleep(for: .seconds(30))
                    signal.yield(false)
                } catch {
                    signal.yield(true)
                }
                return .status(200)
            }
            let pending = Task { try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/computed")!) }
            _ = try await scope.waitForRequest(timeout: .seconds(5))
            return pending
        }
        await #expect(throws: URLError.self) { try await pending.value }
        var iterator = cancelled.makeAsyncIterator()
        #expect(await iterator.next() == true)
    }

    @Test("a request made from a scope that has ended fails with a clear error")
    func requestAfterScopeEnded() async throws {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let late = try await withStubScope { scope in
            await scope.stub(.anyRequest, with: .status(200))
            return Task {
                for await _ in gate { break }
                return try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/late")!)
            }
        }
        open.yield()
        let error = await #expect(throws: URLError.self) { try await late.value }
        #expect(error?.localizedDescription.contains("which has already ended") == true)
    }
}
