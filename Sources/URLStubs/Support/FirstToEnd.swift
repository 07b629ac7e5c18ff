/// Runs `first` and `second` as tasks of their own and returns the value of
/// whichever ends first, cancelling both; `whenCancelled` at once when the calling
/// task is cancelled before either ends.
///
/// Unlike a task group, it never waits for the other task to end: a user's closure
/// that ignores cancellation (a computed answer, a written stream) cannot hold back
/// a request's timeout, its stream's end or its cancel. The loser runs on,
/// cancelled, and its value is dropped. Both tasks inherit the caller's task-locals
/// and priority, as a group's children do.
func firstToEnd<Value: Sendable>(
    _ first: @escaping @Sendable () async -> Value,
    _ second: @escaping @Sendable () async -> Value,
    whenCancelled: Value
) async -> Value {
    let race = FirstToEnd<Value>()
    let tasks = [Task { race.end(with: await first()) }, Task { race.end(with: await second()) }]
    let value = await withTaskCancellationHandler {
        await race.value
    } onCancel: {
        race.end(with: whenCancelled)
    }
    for task in tasks {
        task.cancel()
    }
    return value
}

/// The one value of ``firstToEnd(_:_:whenCancelled:)``: the first given, handed
/// to its waiter once, whenever the waiter comes.
private final class FirstToEnd<Value: Sendable>: Sendable {
    private enum State {
        case running(CheckedContinuation<Value, Never>?)
        case ended(Value)
        case taken
    }

    private let state = Locked(State.running(nil))

    /// Ends the race with `value`, unless it ended already.
    func end(with value: Value) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, Never>? in
            guard case let .running(waiter) = state else { return nil }
            guard let waiter else {
                state = .ended(value)
                return nil
            }
            state = .taken
            return waiter
        }
        waiter?.resume(returning: value)
    }

    /// The value the race ended with, once it has.
    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ended = state.withLock { state -> Value? in
                    switch state {
                    case .running:
                        state = .running(continuation)
                        return nil
                    case let .ended(value):
                        state = .taken
                        return value
                    case .taken:
                        preconditionFailure("URLStubs: a race's value was read twice")
                    }
                }
                if let ended {
                    continuation.resume(returning: ended)
                }
            }
        }
    }
}
