import Foundation

// Entry point: parse the arguments, run the selected measurements, print the report.
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
