#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Compares a request to a served scope with the same request to a minimal
/// constant-answer socket server (``ConstantSocketServer``), through the same
/// client (a `URLSession` with a default configuration, keep-alive), paired in one
/// run; measures throughput with 8 concurrent keep-alive clients; and times the
/// start and stop of a served scope.
struct ServedBenchmark {
    /// Whether this is the smoke run.
    let quick: Bool

    var pairs: Int { quick ? 2 : 40 }
    var warmUpPairs: Int { quick ? 1 : 2 }
    var requestsPerBatch: Int { quick ? 10 : 100 }
    /// Concurrent clients of the throughput comparison.
    var clients: Int { 8 }
    /// Requests each client makes per throughput batch.
    var requestsPerClient: Int { quick ? 5 : 50 }
    /// Servers started and stopped for the lifecycle rows.
    var lifecycles: Int { quick ? 20 : 500 }

    func run() async -> ReportSection {
        let body = Data((0..<1_024).map { UInt8(truncatingIfNeeded: $0) })
        let baselineServer = ConstantSocketServer(body: body)
        defer { baselineServer.stop() }
        var comparisons: [Comparison] = []
        var rows: [ReportRow] = []
        var starts: [Double] = []
        var stops: [Double] = []
        var unexpectedNotes: [String] = []
        do {
            try await withStubScope("served benchmark") { scope in
                await scope.stub(.get("/item"), with: .data(body))
                let server = try await scope.serve()
                let baselineURL = baselineServer.baseURL.appendingPathComponent("item")
                let servedURL = server.baseURL.appendingPathComponent("item")

                Progress.log("served: one request at a time")
                let session = Self.session()
                var series = PairedSeries()
                for pair in 0..<(warmUpPairs + pairs) {
                    if pair < warmUpPairs {
                        _ = await PairedSeries.pair(number: pair, baseline: { await batch(session, baselineURL, body) }, variant: { await batch(session, servedURL, body) })
                    } else {
                        await series.measurePair(baseline: { await batch(session, baselineURL, body) }, variant: { await batch(session, servedURL, body) })
                    }
                }
                comparisons.append(series.comparison("1 client, keep-alive, 1 KiB body", goals: ComparisonGoals(wall: .ratioAtMost(1.2), cpu: .ratioAtMost(1.2))))

                Progress.log("served: \(clients) concurrent keep-alive clients")
                let sessions = (0..<clients).map { _ in Self.session() }
                var concurrent = PairedSeries()
                for pair in 0..<(warmUpPairs + pairs) {
                    if pair < warmUpPairs {
                        _ = await PairedSeries.pair(number: pair, baseline: { await parallelBatch(sessions, baselineURL, body) }, variant: { await parallelBatch(sessions, servedURL, body) })
                    } else {
                        await concurrent.measurePair(baseline: { await parallelBatch(sessions, baselineURL, body) }, variant: { await parallelBatch(sessions, servedURL, body) })
                    }
                }
                comparisons.append(concurrent.comparison("\(clients) concurrent keep-alive clients", headline: .throughput, goals: ComparisonGoals(throughput: .ratioAtLeast(1 / 1.2))))

                Progress.log("served: start and stop, \(lifecycles) times")
                for _ in 0..<lifecycles {
                    let start = Stopwatch.now()
                    let started = try await scope.serve()
                    starts.append(Stopwatch.microseconds(since: start))
                    let stop = Stopwatch.now()
                    started.stop()
                    stops.append(Stopwatch.microseconds(since: stop))
                }
            }
        } catch {
            unexpectedNotes.append("The measurement failed: \(error)")
        }
        rows.append(.samples("serve(): a server started (sockets bound, accept thread running)", unit: "µs", starts, isReference: false, goal: .valueBelow(1_000, "< 1 ms")))
        rows.append(.samples("stop(): the server stopped (sockets closed, accept thread ended)", unit: "µs", stops, isReference: false, goal: .valueBelow(1_000, "< 1 ms")))
        var notes = [
            "Method: one URLSession with a default configuration (no URL protocol of URLStubs; urlCache nil) requests GET /item from the baseline server and from a served scope whose one stub answers it, in batches of \(requestsPerBatch) requests on one task, alternating B V V B ...; \(warmUpPairs) warm-up pair(s) discarded. Both answer 200 with the same 1,024-byte body over a kept-alive connection; paired = the median over pairs of served / baseline.",
            "Baseline: a minimal socket server written in the benchmark (ConstantSocketServer): a thread per connection, reads each head up to its empty line and sends the same bytes back; no parsing, no limits, no resolution.",
            "Throughput: \(clients) URLSessions, each with its own keep-alive connection, each making \(requestsPerClient) requests one after another, all at once; the headline is requests per second, paired = baseline time / served time (so ≥ 0.83x is ≤ 1.2x the time).",
            "Start and stop: inside one open scope, serve() then stop() on the returned server, \(lifecycles) times; each timed on its own.",
        ]
        notes += unexpectedNotes
        let unexpected = comparisons.reduce(0) { $0 + $1.unexpected }
        notes.append(unexpected == 0 ? "Every measured response had the expected body." : "UNEXPECTED answers: \(unexpected)")
        return ReportSection(
            name: MeasurementKind.served.rawValue,
            title: "Served scope: real HTTP over loopback, per request",
            baseline: "minimal constant-answer socket server, same client, paired",
            comparisons: comparisons,
            rows: rows,
            notes: notes
        )
    }

    /// A session with a default configuration and no cache.
    private static func session() -> URLSession {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }

    /// One batch of requests to `url`, one at a time.
    private func batch(_ session: URLSession, _ url: URL, _ body: Data) async -> BatchSample {
        var latencies: [Double] = []
        latencies.reserveCapacity(requestsPerBatch)
        var bodies: [Data?] = []
        bodies.reserveCapacity(requestsPerBatch)
        let meter = BatchMeter()
        for _ in 0..<requestsPerBatch {
            let start = Stopwatch.now()
            bodies.append(try? await session.data(from: url).0)
            latencies.append(Stopwatch.microseconds(since: start))
        }
        let sample = meter.stop(requests: requestsPerBatch, requestMicroseconds: latencies, unexpected: 0)
        var checked = sample
        checked.unexpected = bodies.filter { $0 != body }.count
        return checked
    }

    /// One batch of requests from every session at once, each one after another.
    private func parallelBatch(_ sessions: [URLSession], _ url: URL, _ body: Data) async -> BatchSample {
        let perClient = requestsPerClient
        let meter = BatchMeter()
        let results = await withTaskGroup(of: ([Double], Int).self) { group in
            for session in sessions {
                group.addTask {
                    var latencies: [Double] = []
                    var wrong = 0
                    for _ in 0..<perClient {
                        let start = Stopwatch.now()
                        let data = try? await session.data(from: url).0
                        latencies.append(Stopwatch.microseconds(since: start))
                        if data != body { wrong += 1 }
                    }
                    return (latencies, wrong)
                }
            }
            var all: [([Double], Int)] = []
            for await result in group { all.append(result) }
            return all
        }
        return meter.stop(requests: sessions.count * perClient, requestMicroseconds: results.flatMap(\.0), unexpected: results.reduce(0) { $0 + $1.1 })
    }
}
