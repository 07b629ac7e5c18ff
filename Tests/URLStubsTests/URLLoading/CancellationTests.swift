#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

@Suite("Cancellation and scope end", .timeLimit(.minutes(1)))
struct CancellationTests {
    @Test("cancelling the calling task ends a delayed request with URLError.cancelled, and the request leaves the scope's in-flight list")
    func cancellingTheCallerCancelsTheRequest() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/slow"), with: .text("late").delayed(by: .seconds(3_600)))
            let request = Task {
                try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/slow")!)
            }
            _ = try await scope.waitForRequest(timeout: .patience)
            request.cancel()
            // Only the cancel can end an hour's delay within the time limit.
            let error = await #expect(throws: URLError.self) { try await request.value }
            #expect(error?.code == .cancelled)
            #expect(inFlightCount(in: scope) == 0)
        }
    }

    @Test("in a storm of 400 requests, two thirds cancelled, every uncancelled request gets its own body and every cancelled one its body or URLError.cancelled")
    func cancellationStorm() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/fast"), with: .text("fast"))
            await scope.stub(.get("https://api.example.com/slow"), with: .text("slow").delayed(by: .milliseconds(2)))
            let outcomes = await withTaskGroup(of: (Int, String).self) { group in
                for index in 0..<400 {
                    group.addTask {
                        let path = index.isMultiple(of: 2) ? "fast" : "slow"
                        let task = Task { try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/\(path)")!) }
                        if index % 3 != 0 { task.cancel() }
                        do {
                            let (data, _) = try await task.value
                            return (index, String(decoding: data, as: UTF8.self))
                        } catch let error as URLError where error.code == .cancelled {
                            return (index, "cancelled")
                        } catch {
                            return (index, "unexpected \(error)")
                        }
                    }
                }
                return await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
            }
            #expect(outcomes.count == 400)
            for index in 0..<400 {
                let body = index.isMultiple(of: 2) ? "fast" : "slow"
                if index.isMultiple(of: 3) {
                    #expect(outcomes[index] == body, "request \(index) was not cancelled")
                } else {
                    // A cancel may land after the answer was delivered.
                    #expect(outcomes[index] == body || outcomes[index] == "cancelled", "request \(index)")
                }
            }
            #expect(inFlightCount(in: scope) == 0)
        }
    }

    @Test("cancelling a completion-handler task while its response is delayed reports cancelled once")
    func cancellingADataTask() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/slow"), with: .status(200).delayed(by: .seconds(3_600)))
            // A second report would resume this continuation twice, which traps.
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

    @Test("a request still in flight when its scope ends fails with the whole abandoned-request message")
    func inFlightRequestFailsWhenScopeEnds() async throws {
        let opened = #line + 1
        let pending = try await withStubScope("short-lived") { scope in
            await scope.stub(.get("https://api.example.com/slow"), with: .text("never").delayed(by: .seconds(3_600)))
            let pending = Task {
                try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/slow")!)
            }
            _ = try await scope.waitForRequest(timeout: .patience)
            return pending
        }
        // Only the scope's end can end an hour's delay within the time limit.
        let error = await #expect(throws: URLError.self) { try await pending.value }
        #expect(error?.code == .resourceUnavailable)
        #expect(error.map { masked($0.localizedDescription) } == "URLStubs: GET https://api.example.com/slow was still waiting for its response when scope #N \"short-lived\" (opened at URLStubsTests/CancellationTests.swift:\(opened)) ended; await it inside the scope, or cancel it.")
    }

    @Test("a computed response still running when its scope ends fails the request, and its task is cancelled")
    func computedResponseIsCancelledWhenScopeEnds() async throws {
        let (cancelled, signal) = AsyncStream<Bool>.makeStream()
        let opened = #line + 1
        let pending = try await withStubScope { scope in
            await scope.stub(.get("https://api.example.com/computed")) { _ in
                do {
                    try await Task.sleep(for: .seconds(3_600))
                    signal.yield(false)
                } catch {
                    signal.yield(true)
                }
                return .status(200)
            }
            let pending = Task { try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/computed")!) }
            _ = try await scope.waitForRequest(timeout: .patience)
            return pending
        }
        let error = await #expect(throws: URLError.self) { try await pending.value }
        #expect(error.map { masked($0.localizedDescription) } == "URLStubs: GET https://api.example.com/computed was still waiting for its response when scope #N (opened at URLStubsTests/CancellationTests.swift:\(opened)) ended; await it inside the scope, or cancel it.")
        var iterator = cancelled.makeAsyncIterator()
        #expect(await iterator.next() == true)
    }

    @Test("a request made from a scope that has ended fails with the whole message naming the scope")
    func requestAfterScopeEnded() async throws {
        let gate = Latch()
        let (late, ended) = try await withStubScope { scope in
            await scope.stub(.anyRequest, with: .status(200))
            let late = Task {
                await gate.wait()
                return try await URLSession.stubbed.data(from: URL(string: "https://api.example.com/late")!)
            }
            return (late, scope)
        }
        gate.open()
        let error = await #expect(throws: URLError.self) { try await late.value }
        #expect(error?.code == .resourceUnavailable)
        #expect(error?.localizedDescription == "URLStubs: GET https://api.example.com/late was made in \(ended), which has already ended; a request must finish before the withStubScope body (or the test) that made it returns.")
    }
}
