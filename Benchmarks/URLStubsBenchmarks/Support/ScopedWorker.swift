import URLStubs

/// A long-lived task that runs submitted jobs one after another inside its own
/// stub scope (or outside any scope), so each job sees that scope as current.
///
/// A scope is bound to the task that opened it; a worker lets a benchmark keep
/// several scopes open at once (with their stubs registered once) and switch
/// between them round by round without re-registering anything.
final class ScopedWorker: Sendable {
    /// A unit of work, run on the worker's task.
    typealias Job = @Sendable () async -> Void

    /// The worker's scope, or `nil` for a worker outside any scope.
    let scope: StubScope?
    /// Where jobs are submitted.
    private let jobs: AsyncStream<Job>.Continuation
    /// The worker's task; it returns how many problems its scope reported at its end.
    private let task: Task<Int, Never>

    /// Creates a worker from its parts.
    private init(scope: StubScope?, jobs: AsyncStream<Job>.Continuation, task: Task<Int, Never>) {
        self.scope = scope
        self.jobs = jobs
        self.task = task
    }

    /// Starts a worker whose task opens a top-level scope and runs `setup` in it
    /// (typically registering stubs); returns once `setup` has finished.
    static func scoped(_ setup: @escaping @Sendable (StubScope) async -> Void) async -> ScopedWorker {
        await start(scoped: true, setup)
    }

    /// Starts a worker outside any stub scope.
    static func unscoped() async -> ScopedWorker {
        await start(scoped: false) { _ in }
    }

    /// Starts the worker's detached task (so that it inherits no scope) and waits
    /// until it is ready.
    private static func start(scoped: Bool, _ setup: @escaping @Sendable (StubScope) async -> Void) async -> ScopedWorker {
        let (stream, jobs) = AsyncStream.makeStream(of: Job.self)
        let ready = AsyncStream.makeStream(of: StubScope?.self)
        let task = Task.detached { () -> Int in
            guard scoped else {
                ready.continuation.yield(nil)
                for await job in stream {
                    await job()
                }
                return 0
            }
            do {
                try await withStubScope("benchmark worker") { scope in
                    await setup(scope)
                    ready.continuation.yield(scope)
                    for await job in stream {
                        await job()
                    }
                }
                return 0
            } catch let error as StubVerificationError {
                return error.problems.count
            } catch {
                return -1
            }
        }
        var iterator = ready.stream.makeAsyncIterator()
        let scope = await iterator.next() ?? nil
        return ScopedWorker(scope: scope, jobs: jobs, task: task)
    }

    /// Runs `body` on the worker's task, inside its scope, and returns its result.
    func run<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            jobs.yield {
                continuation.resume(returning: await body())
            }
        }
    }

    /// Ends the worker (and its scope); returns how many problems the scope reported.
    @discardableResult
    func finish() async -> Int {
        jobs.finish()
        return await task.value
    }
}
