#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// Cancels many in-flight `data(for:)` calls at racing moments, in child processes
/// watched by the parent: a child that does not finish in time has hung (and is
/// killed), one that dies has crashed.
///
/// The child is this executable, run as `URLStubsBenchmarks --cancel-storm-child
/// COUNT`; it prints one line of counts and exits 0.
enum CancelStorm {
    /// The argument that runs the child's side.
    static let childFlag = "--cancel-storm-child"

    /// What the parent saw.
    struct Outcome {
        var cancels = 0
        var children = 0
        var hangs = 0
        var crashes = 0
        /// Completion handlers called more than once, or after their answer.
        var lateCallbacks = 0
        /// Requests that ended neither with their body nor with `URLError(.cancelled)`.
        var wrongEndings = 0
        var seconds = 0.0
    }

    /// Runs `children` child processes of `cancelsPerChild` cancels each, one at a
    /// time, each with `watchdog` to finish.
    static func run(children: Int, cancelsPerChild: Int, watchdog: Duration) async -> Outcome {
        #if os(macOS) || os(Linux)
        var outcome = Outcome()
        let start = Stopwatch.now()
        for child in 0..<children {
            Progress.log("stress: cancel storm, child \(child + 1)/\(children)")
            outcome.children += 1
            switch await runChild(cancels: cancelsPerChild, watchdog: watchdog) {
            case let .finished(counts):
                outcome.cancels += counts.cancels
                outcome.lateCallbacks += counts.lateCallbacks
                outcome.wrongEndings += counts.wrongEndings
            case .hung:
                outcome.hangs += 1
                outcome.cancels += cancelsPerChild
            case .crashed:
                outcome.crashes += 1
                outcome.cancels += cancelsPerChild
            }
        }
        outcome.seconds = Stopwatch.nanoseconds(since: start) / 1e9
        return outcome
        #else
        return Outcome() // iOS and its siblings cannot start a process: no storm.
        #endif
    }

    /// The counts one child prints.
    struct Counts {
        var cancels = 0
        var lateCallbacks = 0
        var wrongEndings = 0

        /// The line the child prints.
        var line: String {
            "cancels=\(cancels) late=\(lateCallbacks) wrong=\(wrongEndings)"
        }

        /// Reads `line`, or returns `nil` when it is not a counts line.
        init?(line: String) {
            var values: [String: Int] = [:]
            for pair in line.split(separator: " ") {
                let parts = pair.split(separator: "=")
                guard parts.count == 2, let value = Int(parts[1]) else { return nil }
                values[String(parts[0])] = value
            }
            guard let cancels = values["cancels"], let late = values["late"], let wrong = values["wrong"] else { return nil }
            self.init(cancels: cancels, lateCallbacks: late, wrongEndings: wrong)
        }

        init(cancels: Int = 0, lateCallbacks: Int = 0, wrongEndings: Int = 0) {
            self.cancels = cancels
            self.lateCallbacks = lateCallbacks
            self.wrongEndings = wrongEndings
        }
    }

    /// How a child ended.
    enum ChildEnding {
        case finished(Counts)
        case hung
        case crashed
    }

    /// Runs one child and waits for it. The child reports its progress as it makes
    /// some; one that reports nothing new for `watchdog` has hung, and is killed.
    private static func runChild(cancels: Int, watchdog: Duration) async -> ChildEnding {
        #if os(macOS) || os(Linux)
        let process = Process()
        #if os(Linux)
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
        process.executableURL = Bundle.main.executableURL
        #endif
        process.arguments = [childFlag, String(cancels)]
        let output = Pipe()
        // What the child wrote, and when it last wrote.
        let heard = LockedValue((text: Data(), at: ContinuousClock.now))
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            heard.withLock { $0.text.append(chunk); $0.at = .now }
        }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .crashed
        }
        while process.isRunning, ContinuousClock.now - heard.withLock({ $0.at }) < watchdog {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            output.fileHandleForReading.readabilityHandler = nil
            return .hung
        }
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        let text = heard.withLock { String(decoding: $0.text + rest, as: UTF8.self) }
        guard process.terminationReason == .exit, process.terminationStatus == 0,
              let counts = text.split(separator: "\n").compactMap({ Counts(line: String($0)) }).last
        else { return .crashed }
        return .finished(counts)
        #else
        // iOS, tvOS, watchOS and visionOS cannot start a process: this target builds
        // there (Xcode's package scheme builds every target), and run() starts no child.
        return .crashed
        #endif
    }

    /// The child's side: 16 scopes at once, each starting requests against a stub
    /// answering after a random few hundred microseconds and cancelling each at a
    /// random moment around it; half through `data(for:)`, half through completion
    /// handlers (whose calls are counted). Prints its counts.
    static func child(cancels: Int) async -> Never {
        let lanes = 16
        let perLane = max(1, cancels / lanes)
        let counts = await withTaskGroup(of: Counts.self) { group in
            for lane in 0..<lanes {
                group.addTask { await Self.lane(lane, requests: perLane) }
            }
            // Tells the parent how far the lanes got: a child whose count stops
            // moving has hung (some lanes may hang while others finish).
            group.addTask {
                var last = -1
                while !Task.isCancelled {
                    let done = progress.withLock { $0 }
                    if done != last {
                        FileHandle.standardOutput.write(Data("progress \(done)\n".utf8))
                        last = done
                    }
                    try? await Task.sleep(for: .milliseconds(250))
                }
                return Counts()
            }
            defer { group.cancelAll() }
            var total = Counts()
            for _ in 0..<lanes {
                guard let lane = await group.next() else { break }
                total.cancels += lane.cancels
                total.lateCallbacks += lane.lateCallbacks
                total.wrongEndings += lane.wrongEndings
            }
            return total
        }
        FileHandle.standardOutput.write(Data((counts.line + "\n").utf8))
        exit(0)
    }

    /// The cancels the child's lanes have finished.
    private static let progress = LockedValue(0)

    /// One lane of the child: one scope, `requests` racing cancels.
    private static func lane(_ lane: Int, requests: Int) async -> Counts {
        let body = Data("lane \(lane)".utf8)
        let request = BenchmarkFixtures.request(BenchmarkFixtures.sharedURL)
        var counts = Counts()
        _ = try? await withStubScope { scope in
            await scope.stub(.get(BenchmarkFixtures.sharedURL.absoluteString)) { _ in
                .data(body).delayed(by: .microseconds(Int.random(in: 0...400)))
            }
            for index in 0..<requests {
                let pause = Duration.microseconds(Int.random(in: 0...400))
                if index.isMultiple(of: 2) {
                    let task = Task { try await BenchmarkFixtures.stubbedSession.data(for: request) }
                    try? await Task.sleep(for: pause)
                    task.cancel()
                    switch await task.result {
                    case let .success((data, _)) where data == body: break
                    case let .failure(error as URLError) where error.code == .cancelled: break
                    default: counts.wrongEndings += 1
                    }
                } else {
                    let calls = CallCounter()
                    let task = BenchmarkFixtures.stubbedSession.dataTask(with: request) { data, _, error in
                        calls.record(ok: data == body || (error as? URLError)?.code == .cancelled)
                    }
                    task.resume()
                    try? await Task.sleep(for: pause)
                    task.cancel()
                    await calls.waitForFirst()
                    // A second call, or one after the first, would show up here.
                    try? await Task.sleep(for: .microseconds(50))
                    counts.lateCallbacks += max(0, calls.count - 1)
                    if !calls.allOK { counts.wrongEndings += 1 }
                }
                counts.cancels += 1
                progress.withLock { $0 += 1 }
            }
        }
        return counts
    }
}

/// Counts a completion handler's calls and lets a task wait for the first.
final class CallCounter: Sendable {
    private struct State {
        var calls = 0
        var ok = true
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = LockedValue(State())

    /// Records one call.
    func record(ok: Bool) {
        let waiter = state.withLock { state in
            state.calls += 1
            state.ok = state.ok && ok
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The calls so far.
    var count: Int {
        state.withLock { $0.calls }
    }

    /// Whether every call ended with the body or a cancellation.
    var allOK: Bool {
        state.withLock { $0.ok }
    }

    /// Returns once the handler has been called at least once.
    func waitForFirst() async {
        await withCheckedContinuation { continuation in
            let called = state.withLock { state in
                if state.calls == 0 { state.waiter = continuation }
                return state.calls > 0
            }
            if called { continuation.resume() }
        }
    }
}
