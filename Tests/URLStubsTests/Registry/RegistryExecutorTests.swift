import Foundation
import Testing
@testable import URLStubs

@Suite("The registry: an actor whose executor is a lock, entered inline")
struct RegistryExecutorTests {
    @Test("a plain thread that enters the registry is isolated to it: the runtime's own check passes there, with no task")
    func enteredOnAPlainThread() async {
        let registry = StubRegistry()
        let entered = await withCheckedContinuation { continuation in
            let thread = Thread {
                let id = registry.withIsolation { registry -> UInt64 in
                    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                        // Older Apple runtimes cannot ask a custom executor.
                        registry.preconditionIsolated("entered inline")
                    }
                    defer { registry.nextWaiterID += 1 }
                    return registry.nextWaiterID
                }
                continuation.resume(returning: id)
            }
            thread.start()
        }
        #expect(entered == 1)
    }

    @Test("isolated methods awaited from tasks and sections entered inline from threads run one at a time: 8,000 increments, none lost")
    func awaitedAndInlineTakeTurns() async {
        let registry = StubRegistry()
        let rounds = 2_000
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for _ in 0..<rounds {
                        if worker.isMultiple(of: 2) {
                            await registry.incrementWaiterIDForTesting()
                        } else {
                            registry.withIsolation { $0.nextWaiterID += 1 }
                        }
                    }
                }
            }
        }
        #expect(registry.withIsolation { $0.nextWaiterID } == UInt64(1 + 4 * rounds))
    }

    #if os(macOS) || os(Linux) || os(Windows)
    @Test("asking whether code is isolated to the registry without holding its lock stops the process with a message", .enabled(if: DeliveryTests.runsExitTests, "set URLSTUBS_EXIT_TESTS=1 and filter on RegistryExecutorTests"))
    func checkWithoutTheLock() async {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return } // Older runtimes cannot ask.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            StubRegistry().preconditionIsolated()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("URLStubs' registry was entered without its lock"), "\(message)")
    }

    @Test("entering the registry again from inside it stops the process with a message, instead of deadlocking", .enabled(if: DeliveryTests.runsExitTests, "set URLSTUBS_EXIT_TESTS=1 and filter on RegistryExecutorTests"))
    func enteringAgain() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let registry = StubRegistry()
            registry.withIsolation { _ in
                _ = registry.isOpen(.global)
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("URLStubs' registry was entered again while this thread was in it"), "\(message)")
    }
    #endif
}

extension StubRegistry {
    /// An isolated method that callers can only `await` from outside: it runs as a
    /// job on the registry's executor.
    fileprivate func incrementWaiterIDForTesting() {
        nextWaiterID += 1
    }
}
