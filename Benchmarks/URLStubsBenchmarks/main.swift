import Foundation

// Entry point: parse the arguments, run the selected measurements, print the report.
// A cancel-storm child (started by the stress section) does its part and exits.
//
// Synchronous top-level code, so that a counted run can wait on this thread, which
// Valgrind can follow (with an asynchronous top level, Valgrind 3.19 stopped with an
// internal error at the start); nothing a counted run does may need the main actor,
// which would wait for this thread forever. The measurements run as the
// asynchronous top level ran them: in a task on the main actor at medium priority
// (one made here would inherit the main thread's high priority), served on the main
// thread by its run loop. Run instead at high priority from `dispatchMain()`'s
// thread, the served row read about 0.1x higher.
if CommandLine.arguments.dropFirst().first == CancelStorm.childFlag {
    let cancels = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 1_000
    Task(priority: .medium) { @MainActor in
        await CancelStorm.child(cancels: cancels)
    }
    RunLoop.main.run()
    stoppedRunLoop()
}
let parsed: BenchmarkOptions.Parsed
do {
    parsed = try BenchmarkOptions.parse(CommandLine.arguments.dropFirst())
} catch {
    Progress.log("error: \(error.message)\n\n\(BenchmarkOptions.usage)")
    exit(64)
}
switch parsed {
case .help:
    print(BenchmarkOptions.usage)
    exit(0)
case let .counted(shape, requests):
    let unexpected = LockedValue(0)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let count = await CountedRun.run(shape, requests: requests)
        unexpected.withLock { $0 = count }
        done.signal()
    }
    done.wait()
    let count = unexpected.withLock { $0 }
    print("counted run \(shape.rawValue): \(requests) requests, \(count == 0 ? "0 unexpected" : "UNEXPECTED: \(count) not answered as expected")")
    exit(count == 0 ? 0 : 1)
case let .run(options):
    Task(priority: .medium) { @MainActor in
        let report = await BenchmarkRunner(options: options).run()
        print(options.json ? report.json() : report.table())
        exit(0)
    }
    RunLoop.main.run()
    stoppedRunLoop()
}

/// Ends the process when the main run loop returned, which it does not while the
/// main queue serves the measurements' task: a report that never came must not look
/// like a run that passed.
func stoppedRunLoop() -> Never {
    Progress.log("error: the main run loop stopped before the measurements ended")
    exit(70)
}
