import Foundation

// Entry point: parse the arguments, run the selected measurements, print the report.
// A cancel-storm child (started by the stress section) does its part and exits.
//
// Synchronous top-level code: the measurements run in a task on the main actor,
// which `dispatchMain()` then serves (the main-actor rows need it), while an
// instruction probe waits on this thread instead, which Valgrind can follow (it
// cannot follow a main thread parked by `dispatchMain()`).
if CommandLine.arguments.dropFirst().first == CancelStorm.childFlag {
    let cancels = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 1_000
    Task { @MainActor in
        await CancelStorm.child(cancels: cancels)
    }
    dispatchMain()
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
case let .probe(shape, requests):
    let unexpected = LockedValue(0)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let count = await InstructionProbe.run(shape, requests: requests)
        unexpected.withLock { $0 = count }
        done.signal()
    }
    done.wait()
    let count = unexpected.withLock { $0 }
    print("probe \(shape.rawValue): \(requests) requests, \(count == 0 ? "0 unexpected" : "UNEXPECTED: \(count) not answered as expected")")
    exit(count == 0 ? 0 : 1)
case let .run(options):
    Task { @MainActor in
        let report = await BenchmarkRunner(options: options).run()
        print(options.json ? report.json() : report.table())
        exit(0)
    }
    dispatchMain()
}
