#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Measures resident memory before and after opening and closing many scopes, each
/// registering three stubs and making one request: memory a finished scope keeps
/// (a leak, or a registry that never shrinks) shows up as growth.
///
/// A warm-up run first pays for one-time allocations (Foundation's session
/// machinery, the registry, the cooperative pool's threads, allocator arenas).
struct MemoryBenchmark {
    /// Whether this is the smoke run.
    let quick: Bool

    /// Scopes opened and closed in the measured run.
    var scopes: Int { quick ? 2_000 : 100_000 }
    /// Scopes opened and closed before the first reading.
    var warmUpScopes: Int { quick ? 500 : 5_000 }
    /// Scopes alive at once.
    var concurrency: Int { 2 }
    /// Readings taken during the measured run.
    var checkpoints: Int { 10 }

    /// Runs the measurement and returns its section of the report.
    func run() async -> ReportSection {
        guard ResidentMemory.bytes() != nil else {
            return ReportSection(
                name: MeasurementKind.memory.rawValue,
                title: "Memory",
                baseline: "resident memory after a warm-up",
                rows: [],
                notes: ["Resident memory cannot be read on this platform (this target reads /proc/self/status on Linux only)."]
            )
        }
        Progress.log("memory: warm-up, \(Format.number(Double(warmUpScopes), digits: 0)) scopes")
        var failures = await Self.cycle(warmUpScopes, concurrency: concurrency)
        let before = ResidentMemory.bytes() ?? 0
        var readings: [Int] = []
        for checkpoint in 1...checkpoints {
            failures += await Self.cycle(scopes / checkpoints, concurrency: concurrency)
            readings.append(ResidentMemory.bytes() ?? 0)
            Progress.log("memory: \(Format.number(Double(scopes / checkpoints * checkpoint), digits: 0)) scopes, RSS \(Format.value(Self.mebibytes(readings.last ?? 0), unit: "MiB"))")
        }
        let after = readings.last ?? before
        let growth = after - before
        var notes = [
            "Each scope: withStubScope, 3 stubs (2 GET, 1 POST), one `data(for:)` answered by a stub, body checked, scope closed; \(concurrency) scopes at a time. RSS is VmRSS of /proc/self/status, read after \(Format.number(Double(warmUpScopes), digits: 0)) warm-up scopes and after each tenth of the run.",
            "RSS at each tenth (MiB): " + readings.map { Format.number(Self.mebibytes($0), digits: 2) }.joined(separator: ", ") + ".",
            "Growth per scope: \(Format.number(Double(growth) / Double(scopes), digits: 1)) bytes. A steady climb across the tenths means memory kept per scope; a step that then stays flat is the allocator keeping freed pages.",
        ]
        if failures != 0 {
            notes.append("UNEXPECTED: \(failures) scopes failed (a request failed, a body differed, or the scope reported problems).")
        }
        return ReportSection(
            name: MeasurementKind.memory.rawValue,
            title: "Memory (resident set size)",
            baseline: "resident memory after the warm-up",
            rows: [
                .single("RSS after the warm-up", unit: "MiB", Self.mebibytes(before)),
                .single("RSS after \(Format.number(Double(scopes), digits: 0)) scopes", unit: "MiB", Self.mebibytes(after)),
                .single("growth over \(Format.number(Double(scopes), digits: 0)) scopes", unit: "MiB", Self.mebibytes(growth), goal: .valueAtMost(1, "≤ 1 MiB")),
            ],
            notes: notes
        )
    }

    /// `bytes` in mebibytes.
    static func mebibytes(_ bytes: Int) -> Double {
        Double(bytes) / 1_048_576
    }

    /// Opens and closes `count` scopes, `concurrency` at a time; returns how many failed.
    static func cycle(_ count: Int, concurrency: Int) async -> Int {
        await withTaskGroup(of: Int.self) { group in
            var started = 0
            while started < min(concurrency, count) {
                group.addTask { await oneScope() }
                started += 1
            }
            var failures = 0
            for await failed in group {
                failures += failed
                if started < count {
                    group.addTask { await oneScope() }
                    started += 1
                }
            }
            return failures
        }
    }

    /// The body every memory scope stubs.
    static let body = BenchmarkFixtures.body(tag: "memory")

    /// One scope's life: three stubs, one request, the end; returns 1 if anything
    /// went wrong, else 0.
    static func oneScope() async -> Int {
        do {
            let matched = try await withStubScope { scope in
                await scope.stub(.get(BenchmarkFixtures.singleURL.absoluteString), with: .data(body))
                await scope.stub(.get(BenchmarkFixtures.itemURL(1).absoluteString), with: .data(body))
                await scope.stub(.post(BenchmarkFixtures.itemURL(2).absoluteString), with: .status(201))
                let (data, _) = try await BenchmarkFixtures.stubbedSession.data(for: BenchmarkFixtures.request(BenchmarkFixtures.singleURL))
                return data == body
            }
            return matched ? 0 : 1
        } catch {
            return 1
        }
    }
}
