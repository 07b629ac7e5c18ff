import Foundation

/// Everything one run measured, with the machine it ran on.
struct BenchmarkReport: Codable, Sendable {
    /// The machine and build, in words.
    struct Machine: Codable, Sendable {
        /// The processors the process may use.
        var activeProcessors: Int
        /// The operating system and architecture.
        var system: String
        /// The processor's model name, as the system reports it: ratios differ from
        /// one model (and one virtual machine) to another, so a figure names its machine.
        var processor: String
        /// The Swift compiler the benchmarks were built with.
        var swift: String
        /// Whether this build was optimized.
        var optimized: Bool

        /// The machine this process runs on.
        static var current: Machine {
            Machine(
                activeProcessors: ProcessInfo.processInfo.activeProcessorCount,
                system: Self.systemName + " " + Self.architecture + " (" + ProcessInfo.processInfo.operatingSystemVersionString + ")",
                processor: Self.processorModel,
                swift: Self.compilerVersion,
                optimized: Self.isOptimized
            )
        }

        /// The operating system family.
        private static var systemName: String {
            #if os(Linux)
            "Linux"
            #elseif os(macOS)
            "macOS"
            #else
            "unknown OS"
            #endif
        }

        /// The processor's model name: `machdep.cpu.brand_string` on Apple
        /// platforms, the first `model name` line of `/proc/cpuinfo` on Linux;
        /// "unknown processor" where it cannot be read.
        private static var processorModel: String {
            #if canImport(Darwin)
            var size = 0
            guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 0 else { return "unknown processor" }
            var name = [CChar](repeating: 0, count: size)
            guard sysctlbyname("machdep.cpu.brand_string", &name, &size, nil, 0) == 0 else { return "unknown processor" }
            return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            #else
            guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown processor" }
            for line in text.split(separator: "\n") where line.hasPrefix("model name") {
                if let colon = line.firstIndex(of: ":") {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return "unknown processor"
            #endif
        }

        /// The processor architecture.
        private static var architecture: String {
            #if arch(x86_64)
            "x86_64"
            #elseif arch(arm64)
            "arm64"
            #else
            "unknown architecture"
            #endif
        }

        /// The compiler version, to the precision compile-time checks allow.
        private static var compilerVersion: String {
            #if compiler(>=6.4)
            "6.4 or later"
            #elseif compiler(>=6.3)
            "6.3"
            #elseif compiler(>=6.2)
            "6.2"
            #else
            "older than 6.2"
            #endif
        }

        /// Whether assertions were compiled out, which is true of `-c release`.
        private static var isOptimized: Bool {
            #if DEBUG
            false
            #else
            true
            #endif
        }
    }

    /// The machine and build.
    var machine: Machine
    /// Whether this was the `--quick` smoke run.
    var quick: Bool
    /// One section per measurement that ran.
    var sections: [ReportSection]
    /// How long the whole run took, in seconds.
    var seconds: Double
}
