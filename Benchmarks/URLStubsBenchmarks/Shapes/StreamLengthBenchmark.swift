#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Plays streams of ever more chunks through `URLSession.data(for:)` and reports
/// the time per chunk, which should stay flat: a step that grows with the chunks
/// already played makes long streams quadratic.
struct StreamLengthBenchmark {
    /// Whether this is the smoke run.
    let quick: Bool

    /// The stream lengths measured, in chunks.
    var chunkCounts: [Int] { quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 200_000] }
    /// Streams played per length (after one discarded warm-up stream of the shortest).
    func repetitions(for chunks: Int) -> Int {
        if quick { return 1 }
        return chunks >= 100_000 ? 3 : 10
    }
    /// The bytes of each chunk.
    static let chunkSize = 16

    /// Runs the measurement and returns its section of the report.
    func run() async -> ReportSection {
        var rows: [ReportRow] = []
        var unexpected = 0
        _ = await Self.play(chunkCounts[0])
        for chunks in chunkCounts {
            var samples: [BatchSample] = []
            for round in 0..<repetitions(for: chunks) {
                Progress.log("streams: \(chunks) chunks, \(round + 1)/\(repetitions(for: chunks))")
                guard let sample = await Self.play(chunks) else {
                    unexpected += 1
                    continue
                }
                samples.append(sample)
            }
            let name = "\(Format.number(Double(chunks), digits: 0)) chunks: time per chunk"
            let isLongest = chunks == chunkCounts.last
            rows.append(ReportRow.samples(
                name,
                unit: "µs",
                samples.map(\.wallPerRequest),
                baseline: rows.first,
                isReference: rows.isEmpty,
                goal: isLongest ? .ratioAtMost(1.5) : nil
            ))
            rows.append(ReportRow.samples("\(Format.number(Double(chunks), digits: 0)) chunks: CPU per chunk", unit: "µs", samples.map(\.cpuPerRequest), isReference: false))
        }
        if unexpected != 0 {
            rows.append(.single("UNEXPECTED: streams that failed or delivered another body", unit: "count", Double(unexpected)))
        }
        return ReportSection(
            name: MeasurementKind.streams.rawValue,
            title: "Long streams through URLSession, per chunk",
            baseline: "none (absolute times); each length is compared with the shortest, whose time per chunk should not grow",
            rows: rows,
            notes: [
                "Method: in a fresh scope, one stub answers `.chunks(_:)` (every chunk \(Self.chunkSize) bytes, no interval) and one request is made with `URLSession.data(for:)`, which on Linux gets the body joined; timed from the call to its return, divided by the chunks. One warm-up stream of the shortest length is discarded. Goal (full run): the longest stream's time per chunk at most 1.5x the shortest's.",
            ]
        )
    }

    /// Plays one stream of `chunks` chunks; `nil` when it failed or delivered
    /// another body.
    static func play(_ chunks: Int) async -> BatchSample? {
        let pieces = (0..<chunks).map { index in Data(repeating: UInt8(truncatingIfNeeded: index), count: chunkSize) }
        let expected = pieces.reduce(into: Data()) { $0.append($1) }
        let url = URL(string: BenchmarkFixtures.origin + "/stream/\(chunks)")!
        return try? await withStubScope("streams") { scope in
            await scope.stub(.get(url.absoluteString), with: .chunks(pieces))
            let meter = BatchMeter()
            let body = try await BenchmarkFixtures.stubbedSession.data(for: BenchmarkFixtures.request(url)).0
            let sample = meter.stop(requests: chunks, requestMicroseconds: [], unexpected: 0)
            return body == expected ? sample : nil
        } ?? nil
    }
}
