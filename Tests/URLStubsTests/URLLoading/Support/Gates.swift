import Foundation
@testable import URLStubs

/// A one-shot event any number of tasks can await, before or after it happens:
/// the gates tests hold instead of sleeping.
///
/// A wait also ends when the waiting task is cancelled (as a test's time limit
/// does), so a gate that never opens fails its test instead of hanging the run.
final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    init() {}

    /// Opens the gate and lets every waiter go.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    var isOpen: Bool {
        state.withLock { $0.isOpen }
    }

    /// Returns once the gate is open, or the calling task is cancelled.
    func wait() async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now {
                    continuation.resume()
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}

/// A wait that a cancel does not end, only ``release()``: what a user's closure
/// that ignores cancellation does.
final class Hold: Sendable {
    private let state = Locked<(isReleased: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    init() {}

    var isReleased: Bool {
        state.withLock { $0.isReleased }
    }

    /// Returns once released, whether or not the calling task is cancelled.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.isReleased { return true }
                state.waiters.append(continuation)
                return false
            }
            if now {
                continuation.resume()
            }
        }
    }

    func release() {
        let waiters = state.withLock { state in
            state.isReleased = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }
}

/// A rendezvous of `parties` tasks: each ``arrive()`` returns once all have
/// arrived, so what they do next overlaps for certain.
final class Barrier: Sendable {
    private let parties: Int
    private let arrived = Locked(0)
    private let allArrived = Latch()

    init(parties: Int) {
        self.parties = parties
    }

    func arrive() async {
        let count = arrived.withLock { count in
            count += 1
            return count
        }
        if count == parties {
            allArrived.open()
        }
        await allArrived.wait()
    }
}

/// Returns once `count` callers wait in `scope` for requests (see
/// `StubScope.waitForRequests`), so that what the test does next happens while
/// they wait.
func waitUntilWaiting(_ count: Int = 1, in scope: StubScope) async {
    while StubRegistry.shared.withIsolation({ $0.scopes[scope.id]?.waiters.count ?? 0 }) < count, !Task.isCancelled {
        await Task.yield()
    }
}

/// `text` with every scope number replaced by `#N`, for comparing whole messages.
func masked(_ text: String) -> String {
    text.replacing(/scope #\d+/, with: "scope #N")
}
