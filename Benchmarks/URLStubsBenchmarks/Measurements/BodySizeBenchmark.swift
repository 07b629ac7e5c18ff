#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Compares requests answered with 1 MiB and 10 MiB bodies by URLStubs and by the
/// hand-rolled protocol: what delivering a large body costs beyond the baseline.
///
/// Both sides run on one worker whose scope stubs both URLs, in pairs of batches
/// (see ``PairedSeries``), the two sizes round-robin.
struct BodySizeBenchmark {
    /// Whether this is the smoke run.
    let quick: Bool

    /// Measured pairs per body size.
    var pairs: Int { quick ? 2 : 60 }
    /// Discarded pairs per body size before the measured ones.
    var warmUpPairs: Int { 1 }

    /// Requests per batch for a body of `size` bytes: fewer for larger bodies, as a
    /// batch keeps its answers until it is checked.
    func requestsPerBatch(size: Int) -> Int {
        if quick {
            return size > 1 << 20 ? 2 : 4
        }
        return size > 1 << 20 ? 8 : 24
    }

    /// Runs the measurement and returns its section of the report.
    func run() async -> ReportSection {
        let sizes = BenchmarkFixtures.largeBodySizes
        let bodies = sizes.map { BenchmarkFixtures.body(tag: "URLStubs \($0)", size: $0) }
        Progress.log("bodies: registering stubs")
        let worker = await ScopedWorker.scoped { scope in
            for (size, body) in zip(sizes, bodies) {
                await scope.stub(.get(BenchmarkFixtures.largeBodyURL(size: size).absoluteString), with: .data(body))
            }
        }
        let comparisons = zip(sizes, bodies).map { size, body in
            let url = BenchmarkFixtures.largeBodyURL(size: size)
            let request = BenchmarkFixtures.request(url)
            return RequestComparison(
                name: "\(Self.mebibytes(size)) body",
                worker: worker,
                baseline: ([request], .body(MockAnswer.body(for: url) ?? Data())),
                variant: ([request], .body(body)),
                requestsPerBatch: requestsPerBatch(size: size),
                goals: ComparisonGoals(wall: .ratioAtMost(1.10))
            )
        }
        let series = await RequestComparison.measure(comparisons, pairs: pairs, warmUpPairs: warmUpPairs, label: "bodies")
        await worker.finish()
        let results = zip(comparisons, series).map { $1.comparison($0.name, goals: $0.goals) }
        var notes = [
            "Method: as in the interception section (one task, batches alternating B V V B ..., per-request wall time, process CPU time and context switches over each batch, medians over batches and over pairs), with \(Format.number(Double(requestsPerBatch(size: sizes[0])), digits: 0))-request batches of 1 MiB bodies and \(Format.number(Double(requestsPerBatch(size: sizes[1])), digits: 0))-request batches of 10 MiB bodies, after \(warmUpPairs) discarded pair(s) of each.",
            "Both sides answer with a body of exactly the same size, built once before the run; each body is compared with the expected one after its batch's readings.",
        ]
        let unexpected = results.reduce(0) { $0 + $1.unexpected }
        notes.append(unexpected == 0 ? "Every body arrived whole and right." : "UNEXPECTED: \(unexpected) requests failed or returned a wrong body.")
        return ReportSection(
            name: MeasurementKind.bodies.rawValue,
            title: "Large bodies: 1 MiB and 10 MiB through URLSession.data(for:), per request",
            baseline: "the hand-rolled protocol answering the same size of body, on the same task, paired batch by batch",
            comparisons: results,
            notes: notes
        )
    }

    /// `bytes` in words, such as `1 MiB`.
    static func mebibytes(_ bytes: Int) -> String {
        "\(bytes >> 20) MiB"
    }
}
