import Foundation

/// The stress section: isolation under churn, cancellation storms watched from
/// outside the process, scope end with many requests in flight, and memory after
/// many cancels. Each part has a goal; `--quick` runs a small version of each.
struct StressBenchmark {
    /// Whether this is the smoke run.
    let quick: Bool

    var churnRequests: Int { quick ? 8_192 : 1_000_000 }
    var stormChildren: Int { quick ? 1 : 10 }
    var cancelsPerChild: Int { quick ? 512 : 10_000 }
    var inFlightCount: Int { quick ? 1_000 : 10_000 }
    var inFlightRounds: Int { quick ? 1 : 3 }
    var memoryCancels: Int { quick ? 2_000 : 50_000 }
    var memoryWarmUp: Int { quick ? 800 : 5_000 }

    /// Runs the four parts and returns the section.
    func run() async -> ReportSection {
        Progress.log("stress: churning scopes, \(Format.number(Double(churnRequests), digits: 0)) requests")
        let churn = await ChurningScopes(total: churnRequests).run()
        let storm = await CancelStorm.run(children: stormChildren, cancelsPerChild: cancelsPerChild, watchdog: .seconds(10))
        var delays: [Double] = []
        var floorDelays: [Double] = []
        var inFlightWrong = 0
        for round in 1...inFlightRounds {
            Progress.log("stress: scope end with \(Format.number(Double(inFlightCount), digits: 0)) in flight, round \(round)/\(inFlightRounds)")
            // The resume() reference in the same round, before and after by turns, so
            // that drift hits both alike.
            let floorFirst = round.isMultiple(of: 2)
            let floorBefore = floorFirst ? await ResumeFloor.run(count: inFlightCount) : nil
            let outcome = await ScopeEndInFlight.run(count: inFlightCount)
            let floor = floorFirst ? floorBefore : await ResumeFloor.run(count: inFlightCount)
            delays += outcome.failureDelays
            floorDelays += floor?.failureDelays ?? []
            inFlightWrong += outcome.wrongEndings + (floor?.wrongEndings ?? 0)
        }
        Progress.log("stress: memory over \(Format.number(Double(memoryCancels), digits: 0)) cancels")
        let memory = await CancelMemory.run(count: memoryCancels, warmUp: memoryWarmUp)
        return section(churn: churn, storm: storm, delays: delays, floorDelays: floorDelays, inFlightWrong: inFlightWrong, memory: memory)
    }

    private func section(churn: ChurningScopes.Outcome, storm: CancelStorm.Outcome, delays: [Double], floorDelays: [Double], inFlightWrong: Int, memory: CancelMemory.Outcome) -> ReportSection {
        let per100k = storm.cancels == 0 ? 0 : 100_000 / Double(storm.cancels)
        let count = { (value: Int) in Format.number(Double(value), digits: 0) }
        var rows: [ReportRow] = [
            .single("churn: responses delivered to the wrong scope, of \(count(churn.requests))", unit: "count", Double(churn.misdeliveries), goal: .valueAtMost(0, "= 0")),
            .single("churn: failed requests", unit: "count", Double(churn.failures), goal: .valueAtMost(0, "= 0")),
            .single("churn: throughput", unit: "req/s", churn.seconds > 0 ? Double(churn.requests) / churn.seconds : 0),
            .single("cancel storm: hangs per 100,000 cancels", unit: "count", Double(storm.hangs) * per100k, goal: .valueAtMost(0, "= 0")),
            .single("cancel storm: crashes per 100,000 cancels", unit: "count", Double(storm.crashes) * per100k, goal: .valueAtMost(0, "= 0")),
            .single("cancel storm: late or repeated callbacks", unit: "count", Double(storm.lateCallbacks), goal: .valueAtMost(0, "= 0")),
            .single("cancel storm: requests ending neither answered nor cancelled", unit: "count", Double(storm.wrongEndings), goal: .valueAtMost(0, "= 0")),
        ]
        let p99 = SampleSummary(delays)?.p99 ?? .infinity
        let floorP99 = SampleSummary(floorDelays)?.p99
        if !floorDelays.isEmpty {
            rows.append(.samples("scope end reference: a bare protocol failing as many parked requests through resume()", unit: "ms", floorDelays, isReference: true))
        }
        if !delays.isEmpty {
            let floorRow = floorDelays.isEmpty ? nil : rows.last
            rows.append(.samples("scope end: from the end to each request's failure", unit: "ms", delays, baseline: floorRow, isReference: false))
        }
        rows.append(.single("scope end: p99 of those", unit: "ms", p99, goal: .valueAtMost(20, "≤ 20 ms")))
        if let floorP99 {
            rows.append(.single("scope end reference: p99 of the bare protocol's failures", unit: "ms", floorP99))
        }
        rows += [
            .single("scope end: requests that did not fail with the scope's error (or, for the reference, with its own)", unit: "count", Double(inFlightWrong), goal: .valueAtMost(0, "= 0")),
            .single("memory: growth over \(count(memoryCancels)) cancels", unit: "MiB", Double(memory.after - memory.before) / 1_048_576, goal: .valueAtMost(1, "≤ 1 MiB")),
            .single("memory: cancels that did not end with URLError(.cancelled)", unit: "count", Double(memory.wrongEndings), goal: .valueAtMost(0, "= 0")),
        ]
        // URLStubs' own wrong outcomes; hangs and crashes of the cancel storm are
        // Foundation's (see the notes) and are judged by their goals, not here.
        let wrong = churn.misdeliveries + churn.failures + storm.lateCallbacks + storm.wrongEndings + inFlightWrong + memory.wrongEndings
        let unexpected = wrong == 0 ? [] : ["UNEXPECTED: \(wrong) wrong outcomes (misdeliveries, failed churn requests, late or repeated callbacks, wrong endings; see the rows)."]
        return ReportSection(
            name: MeasurementKind.stress.rawValue,
            title: "Stress: churn, cancel storms, scope end, memory",
            baseline: "none (counts and absolute times)",
            rows: rows,
            notes: [
                "Churn: 64 tasks, each opening a scope, stubbing the one shared URL with a body of its own, making 16 requests through the shared session and closing it, over and over; \(count(churn.requests)) requests in \(Format.number(churn.seconds, digits: 1)) s. A body of another scope is a misdelivery.",
                "Cancel storm: \(storm.children) child process(es) of this executable (\(CancelStorm.childFlag)), run one at a time, \(count(storm.cancels)) cancels in all in \(Format.number(storm.seconds, digits: 1)) s. Each child runs 16 scopes; each request is answered after a random 0-400 µs and cancelled after a random 0-400 µs, half through data(for:), half through completion handlers whose calls are counted. A child whose count of finished cancels (reported every 250 ms when it moved) stops moving for 10 s is killed and counted as a hang; one that exits otherwise than with its counts, as a crash.",
                "Known cause of hangs on Linux with Foundation 6.3.x: URLSessionTask.cancel() runs inside the Swift task's cancellation handler, holding that task's status lock, and waits for Foundation's work queue, while the work queue, delivering the answer, resumes the same task's continuation and waits for that lock (swift-corelibs-foundation issue #5412, fixed by PR #5417 in Swift 6.4 development snapshots, in no 6.3.x release). Direct answers (scope.data(for:)) do not go through URLSession and cannot meet it.",
                "Scope end: \(inFlightRounds) round(s) of \(count(inFlightCount)) requests waiting for a 10-minute delay, all in flight (awaited with waitForRequests) before the scope's body returns; each request's failure is timed from that moment. p99: \(Format.number(p99, digits: 1)) ms.",
                "Scope end reference (Linux): in each round, before or after by turns, a URL protocol of a few lines parks as many data(for:) requests in its first startLoading() and fails them in the next, brought about by calling resume() on each task, one after another: the way back onto the task's work queue that public API gives, which URLStubs used until it performed late answers on that queue directly (a client may only be called there; each resume() waits for the queue). Timed from the first resume(). p99: \(floorP99.map { Format.number($0, digits: 1) + " ms" } ?? "not measured").",

                "Memory: RSS after \(count(memoryWarmUp)) warm-up cancels and after \(count(memoryCancels)) more, in scopes of \(CancelMemory.cancelsPerScope) requests (POST, 1 KiB body, answer delayed 10 minutes, cancelled after 200 µs), \(CancelMemory.lanes) scopes at a time. The memory section measures 100,000 scopes.",
            ] + unexpected
        )
    }
}
