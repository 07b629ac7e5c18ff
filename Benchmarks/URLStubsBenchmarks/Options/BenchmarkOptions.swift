/// The command-line options of the benchmark executable, parsed by hand.
struct BenchmarkOptions: Sendable {
    /// Whether to run the few-second smoke version (CI), which asserts nothing.
    var quick = false
    /// Whether to print the report as JSON instead of a table.
    var json = false
    /// The name (or the start of a name) of the only measurement to run, if any.
    var filter: String?

    /// The usage text printed by `--help` and after a bad argument.
    static let usage = """
        Usage: swift run -c release URLStubsBenchmarks [--quick] [--json] [--filter NAME]
               swift run -c release URLStubsBenchmarks --counted SHAPE REQUESTS

          --quick        a few-second smoke run (used by CI; timings are not meaningful)
          --json         print the results as JSON on standard output instead of a table
          --filter NAME  run only the measurement NAME: \(MeasurementKind.allCases.map(\.rawValue).joined(separator: ", "))
          --counted SHAPE REQUESTS
                         make REQUESTS requests of SHAPE, timing nothing, for an instruction
                         counter (Benchmarks/count-instructions.sh): \(CountedRun.Shape.allCases.map(\.rawValue).joined(separator: ", "))
          --help         show this text

        Progress goes to standard error; the table (or JSON) to standard output.
        """

    /// Why parsing failed, with the message to show.
    struct ParseError: Error, Sendable {
        /// A sentence naming the bad argument.
        let message: String
    }

    /// What parsing asked for: a run with these options, or the usage text.
    enum Parsed: Sendable {
        /// Run the benchmarks with these options.
        case run(BenchmarkOptions)
        /// Print the usage text and exit successfully.
        case help
        /// Make this many requests of this shape, timing nothing (see ``CountedRun``).
        case counted(CountedRun.Shape, requests: Int)
    }

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: some Sequence<String>) throws(ParseError) -> Parsed {
        var options = BenchmarkOptions()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--quick":
                options.quick = true
            case "--json":
                options.json = true
            case "--help", "-h":
                return .help
            case "--counted":
                let shapes = CountedRun.Shape.allCases.map(\.rawValue).joined(separator: ", ")
                guard let name = iterator.next() else {
                    throw ParseError(message: "--counted needs a shape: \(shapes)")
                }
                guard let shape = CountedRun.Shape(rawValue: name) else {
                    throw ParseError(message: "--counted: no shape is named \"\(name)\" (the shapes: \(shapes))")
                }
                guard let count = iterator.next().flatMap({ Int($0) }), count > 0 else {
                    throw ParseError(message: "--counted \(name) needs a number of requests above zero")
                }
                guard !shape.isPerTest || count % CountedRun.requestsPerTest == 0 else {
                    throw ParseError(message: "--counted \(name) makes \(CountedRun.requestsPerTest) requests per test: give a multiple of \(CountedRun.requestsPerTest)")
                }
                guard iterator.next() == nil, !options.quick, !options.json, options.filter == nil else {
                    throw ParseError(message: "--counted takes no other arguments")
                }
                return .counted(shape, requests: count)
            case "--filter":
                guard let name = iterator.next(), !name.hasPrefix("--") else {
                    throw ParseError(message: "--filter needs a measurement name")
                }
                options.filter = name
            case _ where argument.hasPrefix("--filter="):
                options.filter = String(argument.dropFirst("--filter=".count))
            default:
                throw ParseError(message: "unknown argument \"\(argument)\"")
            }
        }
        if let filter = options.filter, options.selectedKinds.isEmpty {
            throw ParseError(message: "no measurement is named \"\(filter)\"")
        }
        return .run(options)
    }

    /// The measurements to run, in report order: all of them, or those the filter names.
    ///
    /// The filter matches a measurement's name case-insensitively, exactly or as its start.
    var selectedKinds: [MeasurementKind] {
        guard let filter = filter?.lowercased(), !filter.isEmpty else {
            return MeasurementKind.allCases
        }
        if let exact = MeasurementKind.allCases.first(where: { $0.rawValue.lowercased() == filter }) {
            return [exact]
        }
        return MeasurementKind.allCases.filter { $0.rawValue.lowercased().hasPrefix(filter) }
    }
}
