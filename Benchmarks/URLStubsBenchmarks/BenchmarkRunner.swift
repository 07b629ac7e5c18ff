import Foundation

/// Runs the selected measurements in order and gathers their sections.
struct BenchmarkRunner: Sendable {
    /// The parsed command-line options.
    let options: BenchmarkOptions

    /// Runs every selected measurement and returns the report.
    func run() async -> BenchmarkReport {
        let start = Stopwatch.now()
        var sections: [ReportSection] = []
        for kind in options.selectedKinds {
            Progress.log("== \(kind.rawValue)")
            let sectionStart = Stopwatch.now()
            var section = await run(kind)
            section.seconds = Stopwatch.nanoseconds(since: sectionStart) / 1e9
            sections.append(section)
        }
        let report = BenchmarkReport(
            machine: .current,
            quick: options.quick,
            sections: sections,
            seconds: Stopwatch.nanoseconds(since: start) / 1e9
        )
        // A smoke run judges no goal (see withoutVerdicts()).
        return options.quick ? report.withoutVerdicts() : report
    }

    /// Runs one measurement.
    private func run(_ kind: MeasurementKind) async -> ReportSection {
        switch kind {
        case .canInit: await CanInitBenchmark(quick: options.quick).run()
        case .interception: await InterceptionBenchmark(quick: options.quick).run()
        case .bodies: await BodySizeBenchmark(quick: options.quick).run()
        case .streams: await StreamLengthBenchmark(quick: options.quick).run()
        case .shapes: await SuiteShapesBenchmark(quick: options.quick).run()
        case .throughput: await ThroughputBenchmark(quick: options.quick).run()
        case .registration: await RegistrationBenchmark(quick: options.quick).run()
        case .matching: await MatchingBenchmark(quick: options.quick).run()
        case .memory: await MemoryBenchmark(quick: options.quick).run()
        case .served: await ServedBenchmark(quick: options.quick).run()
        case .stress: await StressBenchmark(quick: options.quick).run()
        }
    }
}
