import Foundation

// Entry point: parse the arguments, run the selected measurements, print the report.
// A cancel-storm child (started by the stress section) does its part and exits.
if CommandLine.arguments.dropFirst().first == CancelStorm.childFlag {
    await CancelStorm.child(cancels: CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 1_000)
}
do {
    switch try BenchmarkOptions.parse(CommandLine.arguments.dropFirst()) {
    case .help:
        print(BenchmarkOptions.usage)
    case let .run(options):
        let report = await BenchmarkRunner(options: options).run()
        print(options.json ? report.json() : report.table())
    }
} catch {
    Progress.log("error: \(error.message)\n\n\(BenchmarkOptions.usage)")
    exit(64)
}
exit(0)
