#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// `Delivery`, the state machine of one request, driven alone: every event in
/// every phase, with the exact action it returns and the exact state it leaves
/// (phase, calls ready, loading or not, what the client keeps). No thread, no
/// URLSession, no registry: the actions are only read. (`DeliveryStateMachineTests`
/// drives the whole delivery through a protocol, call by call, on threads.)
@Suite("Delivery: every event in every phase", .timeLimit(.minutes(1)))
struct DeliveryTests {
    // MARK: The table

    /// What an event does in a phase: the action it returns and the state it
    /// leaves, or a trap (the event cannot happen there).
    enum Outcome: Sendable {
        case moves(String, to: String)
        case traps
    }

    /// Every event in every phase (see ``Fixture/delivery(in:)`` for the state each
    /// phase starts from). States read `phase; ready: calls; loading or stopped`.
    static let table: [Event: [Phase: Outcome]] = [
        .startLoading: [
            .idle: .moves("resolve", to: "resolving; ready: none; loading"),
            .resolving: .traps,
            .awaitingFailure: .moves("none", to: "awaitingFailure(thread); ready: none; loading"),
            .starting: .traps,
            .producing: .moves("makeReady", to: "producing(producer, thread); ready: none; loading"),
            .produced: .moves("makeReady", to: "produced; ready: receive 200, load \"ab\", finish; loading"),
            .finished: .moves("none", to: "finished; ready: none; loading"),
        ],
        .resolvedInline: [
            .idle: .traps,
            .resolving: .moves("-", to: "finished; ready: none; loading"),
            .awaitingFailure: .traps,
            .starting: .traps,
            .producing: .traps,
            .produced: .traps,
            .finished: .traps,
        ],
        .inlineAnswerDropped: [
            .idle: .traps,
            .resolving: .moves("none", to: "awaitingFailure(thread); ready: none; loading"),
            .awaitingFailure: .traps,
            .starting: .traps,
            .producing: .traps,
            .produced: .moves("makeReady", to: "produced; ready: receive 200, load \"ab\", finish; loading"),
            .finished: .traps,
        ],
        .answersLater: [
            .idle: .traps,
            .resolving: .moves("startProducer", to: "starting(thread); ready: none; loading"),
            .awaitingFailure: .traps,
            .starting: .traps,
            .producing: .traps,
            .produced: .moves("makeReady", to: "produced; ready: receive 200, load \"ab\", finish; loading"),
            .finished: .traps,
        ],
        .producerStarted: [
            .idle: .traps,
            .resolving: .traps,
            .awaitingFailure: .traps,
            .starting: .moves("none", to: "producing(producer, thread); ready: none; loading"),
            .producing: .traps,
            .produced: .moves("cancel", to: "produced; ready: receive 200, load \"ab\", finish; loading"),
            .finished: .moves("cancel", to: "finished; ready: none; loading"),
        ],
        .producedResponse: [
            .idle: .traps,
            .resolving: .traps,
            .awaitingFailure: .traps,
            .starting: .moves("schedule(thread)", to: "starting(thread); ready: receive 200; loading"),
            .producing: .moves("schedule(thread)", to: "producing(producer, thread); ready: receive 200; loading"),
            .produced: .moves("drop", to: "produced; ready: receive 200, load \"ab\", finish; loading"),
            .finished: .moves("drop", to: "finished; ready: none; loading"),
        ],
        .producedFinish: [
            .idle: .traps,
            .resolving: .traps,
            .awaitingFailure: .traps,
            .starting: .moves("schedule(thread)", to: "produced; ready: finish; loading"),
            .producing: .moves("schedule(thread)", to: "produced; ready: finish; loading"),
            .produced: .moves("drop", to: "produced; ready: receive 200, load \"ab\", finish; loading"),
            .finished: .moves("drop", to: "finished; ready: none; loading"),
        ],
        .abandoned: [
            .idle: .traps,
            .resolving: .moves("none", to: "produced; ready: fail -1008; loading"),
            .awaitingFailure: .moves("fail(scheduleOn: thread, producer: none)", to: "produced; ready: fail -1008; loading"),
            .starting: .moves("fail(scheduleOn: thread, producer: none)", to: "produced; ready: fail -1008; loading"),
            .producing: .moves("fail(scheduleOn: thread, producer: producer)", to: "produced; ready: fail -1008; loading"),
            .produced: .traps,
            .finished: .moves("none", to: "finished; ready: none; loading"),
        ],
        .clientThreadTurn: [
            .idle: .traps,
            .resolving: .traps,
            .awaitingFailure: .traps,
            .starting: .moves("none", to: "starting(thread); ready: none; loading"),
            .producing: .moves("none", to: "producing(producer, thread); ready: none; loading"),
            .produced: .moves("make(receive 200, load \"ab\", finish; from: protocol)", to: "finished; ready: none; loading"),
            .finished: .moves("none", to: "finished; ready: none; loading"),
        ],
        .learnedChunkRetention: [
            .idle: .traps,
            .resolving: .traps,
            .awaitingFailure: .traps,
            .starting: .moves("-", to: "starting(thread); ready: none; loading; keeps the last piece"),
            .producing: .moves("-", to: "producing(producer, thread); ready: none; loading; keeps the last piece"),
            .produced: .moves("-", to: "produced; ready: receive 200, load \"ab\", finish; loading; keeps the last piece"),
            .finished: .moves("-", to: "finished; ready: none; loading; keeps the last piece"),
        ],
        .suspend: [
            .idle: .traps,
            .resolving: .traps,
            .awaitingFailure: .moves("none", to: "awaitingFailure(thread); ready: none; stopped"),
            .starting: .traps,
            .producing: .moves("none", to: "producing(producer, thread); ready: none; stopped"),
            .produced: .moves("none", to: "produced; ready: receive 200, load \"ab\", finish; stopped"),
            .finished: .moves("none", to: "finished; ready: none; stopped"),
        ],
        .cancel: [
            .idle: .traps,
            .resolving: .traps,
            .awaitingFailure: .moves("none", to: "finished; ready: none; stopped"),
            .starting: .traps,
            .producing: .moves("cancelAndSettle(producer)", to: "finished; ready: none; stopped"),
            .produced: .moves("none", to: "finished; ready: none; stopped"),
            .finished: .moves("none", to: "finished; ready: none; stopped"),
        ],
    ]

    @Test("the table has a row for every event in every phase")
    func tableIsComplete() {
        for event in Event.allCases {
            #expect(Self.table[event].map { Set($0.keys) } == Set(Phase.allCases), "\(event)")
        }
    }

    @Test("each event returns the action and leaves the state the table gives", arguments: Event.allCases, Phase.allCases)
    func transition(event: Event, phase: Phase) {
        guard case let .moves(action, state) = Self.table[event]?[phase] else { return }
        let fixture = Fixture()
        var delivery = fixture.delivery(in: phase)
        #expect(fixture.apply(event, to: &delivery) == action)
        #expect(fixture.describe(delivery) == state)
    }

    #if os(macOS) || os(Linux) || os(Windows)
    /// Whether the exit tests below run: only in a test process of their own, with
    /// `URLSTUBS_EXIT_TESTS=1` (as `.ci/run` does). Swift Testing's first exit test
    /// starts a thread that waits for any child process of the test process, and
    /// the suite starts child processes of its own. Whether that disturbs the
    /// real-socket suites is not settled (on two busy cores `LocalServerTests`
    /// failed in 3 runs of 3 with these tests in the whole suite, then in none of
    /// 2, and once without them): apart, they cannot.
    static let runsExitTests = ProcessInfo.processInfo.environment["URLSTUBS_EXIT_TESTS"] == "1"

    @Test("an event that cannot happen in a phase stops the process with a message naming both", .enabled(if: runsExitTests, "set URLSTUBS_EXIT_TESTS=1 and filter on DeliveryTests"), .serialized, arguments: Event.allCases, Phase.allCases)
    func trap(event: Event, phase: Phase) async {
        guard case .traps = Self.table[event]?[phase] else { return }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [event, phase] in
            let fixture = Fixture()
            var delivery = fixture.delivery(in: phase)
            _ = fixture.apply(event, to: &delivery)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("URLStubs: a delivery got \(event.name) in phase \(phase), which cannot happen"), "\(message)")
    }
    #endif

    // MARK: The queue of ready calls

    @Test("calls produced while loading is stopped are held, and made when loading starts again")
    func stoppedLoadingHoldsTheCalls() {
        let fixture = Fixture()
        var delivery = fixture.delivery(in: .producing)
        #expect(fixture.describe(delivery.stopLoading(isCancel: false)) == "none")
        #expect(fixture.describe(delivery.produced([.receive(fixture.response)])) == "hold")
        #expect(fixture.describe(delivery.produced([.finish])) == "hold")
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "none")
        #expect(fixture.describe(delivery.startLoading()) == "makeReady")
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "make(receive 200, finish; from: protocol)")
        #expect(fixture.describe(delivery) == "finished; ready: none; loading")
    }

    @Test("the scope's failure while loading is stopped waits for the next startLoading(), and the producer is handed to the registry")
    func failureWhileStopped() {
        let fixture = Fixture()
        var delivery = fixture.delivery(in: .producing)
        _ = delivery.stopLoading(isCancel: false)
        #expect(fixture.describe(delivery.abandoned(with: fixture.failure)) == "fail(scheduleOn: none, producer: producer)")
        #expect(fixture.describe(delivery.startLoading()) == "makeReady")
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "make(fail -1008; from: protocol)")
        #expect(fixture.describe(delivery) == "finished; ready: none; loading")
    }

    @Test("a piece of a body makes the client thread ask whether the client keeps every piece; one that does gets each piece as it comes")
    func clientKeepingEveryPiece() {
        let fixture = Fixture()
        var delivery = fixture.delivery(in: .producing)
        #expect(fixture.describe(delivery.produced([.receive(fixture.response)])) == "schedule(thread)")
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "make(receive 200; from: protocol)")
        #expect(fixture.describe(delivery.produced([.load(Data("ab".utf8))])) == "schedule(thread)")
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "askChunkRetention(protocol)")
        delivery.learnedChunkRetention(keepsEveryChunk: true)
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "make(load \"ab\"; from: protocol)")
        #expect(fixture.describe(delivery.produced([.load(Data("cd".utf8))])) == "schedule(thread)")
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "make(load \"cd\"; from: protocol)")
        #expect(fixture.describe(delivery.produced([.finish])) == "schedule(thread)")
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "make(finish; from: protocol)")
        #expect(fixture.describe(delivery) == "finished; ready: none; loading; keeps every piece")
    }

    @Test("for a client that keeps only the last piece, pieces wait without a trip to the client thread, and are made joined, just before the finish")
    func clientKeepingTheLastPiece() {
        let fixture = Fixture()
        var delivery = fixture.delivery(in: .producing)
        _ = delivery.produced([.receive(fixture.response), .load(Data("ab".utf8))])
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "askChunkRetention(protocol)")
        delivery.learnedChunkRetention(keepsEveryChunk: false)
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "make(receive 200; from: protocol)")
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "none")
        #expect(fixture.describe(delivery.produced([.load(Data("cd".utf8))])) == "hold")
        #expect(fixture.describe(delivery.produced([.finish])) == "schedule(thread)")
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "make(load \"abcd\", finish; from: protocol)")
        #expect(fixture.describe(delivery) == "finished; ready: none; loading; keeps the last piece")
    }

    @Test("for a client that keeps only the last piece, only pieces wait: a call that is not a piece is taken to the client thread at once")
    func onlyPiecesWait() {
        let fixture = Fixture()
        var delivery = fixture.delivery(in: .producing)
        delivery.learnedChunkRetention(keepsEveryChunk: false)
        #expect(fixture.describe(delivery.produced([.receive(fixture.response)])) == "schedule(thread)")
        #expect(fixture.describe(delivery.produced([.load(Data("ab".utf8))])) == "schedule(thread)")
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "make(receive 200; from: protocol)")
        #expect(fixture.describe(delivery.produced([.load(Data("cd".utf8))])) == "hold")
        #expect(fixture.describe(delivery) == "producing(producer, thread); ready: load \"ab\", load \"cd\"; loading; keeps the last piece")
    }

    @Test("a whole answer of several pieces asks first, and a failure after them drops the pieces for a client that keeps only the last, as Foundation would")
    func failureAfterPiecesDropsThem() {
        let fixture = Fixture()
        var delivery = fixture.delivery(in: .producing)
        _ = delivery.produced([.receive(fixture.response), .load(Data("ab".utf8)), .load(Data("cd".utf8)), .fail(fixture.failure)])
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "askChunkRetention(protocol)")
        delivery.learnedChunkRetention(keepsEveryChunk: false)
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "make(receive 200, fail -1008; from: protocol)")
    }

    @Test("a turn on the client thread from the protocol that called startLoading() makes the calls from it; once the recorded protocol is gone, a late turn makes nothing and the delivery ends")
    func protocolGone() throws {
        let fixture = Fixture()
        var delivery = Delivery()
        _ = delivery.startLoading()
        var gone: StubURLProtocol? = Fixture.makeProtocol()
        _ = delivery.answersLater(at: fixture.clientThread, for: try #require(gone))
        _ = delivery.producerStarted(fixture.producer)
        _ = delivery.produced([.receive(fixture.response)])
        #expect(fixture.describe(delivery.clientThreadTurn(from: fixture.urlProtocol)) == "make(receive 200; from: protocol)")
        gone = nil
        _ = delivery.produced([.finish])
        #expect(fixture.describe(delivery.clientThreadTurn(from: nil)) == "none")
        #expect(fixture.describe(delivery) == "finished; ready: none; loading")
    }
}

extension DeliveryTests {
    /// The phases, as the table names them.
    enum Phase: String, CaseIterable, Codable, Sendable, CustomStringConvertible, CustomTestStringConvertible {
        case idle, resolving, awaitingFailure, starting, producing, produced, finished

        var description: String { rawValue }
        var testDescription: String { rawValue }
    }

    /// The events, as the table names them.
    enum Event: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
        case startLoading, resolvedInline, inlineAnswerDropped, answersLater, producerStarted
        case producedResponse, producedFinish, abandoned, clientThreadTurn, learnedChunkRetention
        case suspend, cancel

        var testDescription: String { rawValue }

        /// The event as the delivery's message names it.
        var name: String {
            switch self {
            case .startLoading: "startLoading()"
            case .resolvedInline: "resolvedInline()"
            case .inlineAnswerDropped: "inlineAnswerDropped(at:for:)"
            case .answersLater: "answersLater(at:for:)"
            case .producerStarted: "producerStarted(_:)"
            case .producedResponse, .producedFinish: "produced(_:)"
            case .abandoned: "abandoned(with:)"
            case .clientThreadTurn: "clientThreadTurn(from:)"
            case .learnedChunkRetention: "learnedChunkRetention(keepsEveryChunk:)"
            case .suspend: "stopLoading() for a suspend"
            case .cancel: "stopLoading() for a cancel"
            }
        }
    }

    /// The things a delivery refers to, each told apart by identity when an
    /// action or a state is described: a client thread (a queue nothing is sent
    /// to), a protocol, a producing task.
    struct Fixture {
        let queue = DispatchQueue(label: "DeliveryTests.client-thread")
        let urlProtocol = Fixture.makeProtocol()
        let producer = Task<Void, Never> {}
        let response = HTTPURLResponse(url: URL(string: "https://api.example.com/delivery")!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)!
        let failure = URLError(.resourceUnavailable)

        var clientThread: ClientThread { .serialQueue(queue) }

        static func makeProtocol() -> StubURLProtocol {
            StubURLProtocol(request: URLRequest(url: URL(string: "https://api.example.com/delivery")!), cachedResponse: nil, client: nil)
        }

        /// A delivery in `phase`, reached by the events that lead there, loading:
        /// `produced` with a whole answer ready, `finished` after it was made.
        func delivery(in phase: Phase) -> Delivery {
            var delivery = Delivery()
            guard phase != .idle else { return delivery }
            _ = delivery.startLoading()
            switch phase {
            case .idle, .resolving:
                return delivery
            case .awaitingFailure:
                _ = delivery.inlineAnswerDropped(at: clientThread, for: urlProtocol)
                return delivery
            case .starting, .producing, .produced, .finished:
                _ = delivery.answersLater(at: clientThread, for: urlProtocol)
            }
            guard phase != .starting else { return delivery }
            _ = delivery.producerStarted(producer)
            guard phase != .producing else { return delivery }
            _ = delivery.produced([.receive(response), .load(Data("ab".utf8)), .finish])
            guard phase != .produced else { return delivery }
            _ = delivery.clientThreadTurn(from: nil)
            return delivery
        }

        /// Tells `delivery` the event, and describes the action it returns (`-`
        /// for none returned).
        func apply(_ event: Event, to delivery: inout Delivery) -> String {
            switch event {
            case .startLoading:
                return describe(delivery.startLoading())
            case .resolvedInline:
                delivery.resolvedInline()
                return "-"
            case .inlineAnswerDropped:
                return describe(delivery.inlineAnswerDropped(at: clientThread, for: urlProtocol))
            case .answersLater:
                return describe(delivery.answersLater(at: clientThread, for: urlProtocol))
            case .producerStarted:
                return describe(delivery.producerStarted(producer))
            case .producedResponse:
                return describe(delivery.produced([.receive(response)]))
            case .producedFinish:
                return describe(delivery.produced([.finish]))
            case .abandoned:
                return describe(delivery.abandoned(with: failure))
            case .clientThreadTurn:
                return describe(delivery.clientThreadTurn(from: nil))
            case .learnedChunkRetention:
                delivery.learnedChunkRetention(keepsEveryChunk: false)
                return "-"
            case .suspend:
                return describe(delivery.stopLoading(isCancel: false))
            case .cancel:
                return describe(delivery.stopLoading(isCancel: true))
            }
        }

        // MARK: Descriptions

        func describe(_ delivery: Delivery) -> String {
            let phase = switch delivery.phase {
            case .idle: "idle"
            case .resolving: "resolving"
            case let .awaitingFailure(thread): "awaitingFailure(\(describe(thread)))"
            case let .starting(thread): "starting(\(describe(thread)))"
            case let .producing(task, thread): "producing(\(describe(task)), \(describe(thread)))"
            case .produced: "produced"
            case .finished: "finished"
            }
            var parts = [phase, "ready: \(describe(delivery.ready))", delivery.isLoading ? "loading" : "stopped"]
            if let keeps = delivery.keepsEveryChunk {
                parts.append(keeps ? "keeps every piece" : "keeps the last piece")
            }
            return parts.joined(separator: "; ")
        }

        func describe(_ action: Delivery.StartAction) -> String {
            switch action {
            case .resolve: "resolve"
            case .makeReady: "makeReady"
            case .none: "none"
            }
        }

        func describe(_ action: Delivery.DroppedAction) -> String {
            switch action {
            case .makeReady: "makeReady"
            case .none: "none"
            }
        }

        func describe(_ action: Delivery.LateAction) -> String {
            switch action {
            case .startProducer: "startProducer"
            case .makeReady: "makeReady"
            }
        }

        func describe(_ action: Delivery.ProducerAction) -> String {
            switch action {
            case .none: "none"
            case .cancel: "cancel"
            }
        }

        func describe(_ action: Delivery.ProducedAction) -> String {
            switch action {
            case let .schedule(thread): "schedule(\(describe(thread)))"
            case .hold: "hold"
            case .drop: "drop"
            }
        }

        func describe(_ action: Delivery.AbandonAction) -> String {
            switch action {
            case .none: "none"
            case let .fail(thread, task): "fail(scheduleOn: \(thread.map(describe) ?? "none"), producer: \(task.map(describe) ?? "none"))"
            }
        }

        func describe(_ action: Delivery.TurnAction) -> String {
            switch action {
            case .none: "none"
            case let .askChunkRetention(asked): "askChunkRetention(\(asked.map(describe) ?? "none"))"
            case let .make(calls, from): "make(\(describe(calls)); from: \(describe(from)))"
            }
        }

        func describe(_ action: Delivery.StopAction) -> String {
            switch action {
            case .none: "none"
            case let .cancelAndSettle(task): "cancelAndSettle(\(describe(task)))"
            }
        }

        func describe(_ thread: ClientThread) -> String {
            if case let .serialQueue(queue) = thread, queue === self.queue { return "thread" }
            return "another place"
        }

        func describe(_ task: Task<Void, Never>) -> String {
            task == producer ? "producer" : "another task"
        }

        func describe(_ urlProtocol: StubURLProtocol) -> String {
            urlProtocol === self.urlProtocol ? "protocol" : "another protocol"
        }

        func describe(_ calls: [ClientCall]) -> String {
            guard !calls.isEmpty else { return "none" }
            return calls.map { call in
                switch call {
                case let .receive(response): "receive \(response.statusCode)"
                case let .load(piece): "load \"\(String(decoding: piece, as: UTF8.self))\""
                case .finish: "finish"
                case let .fail(error): "fail \((error as? URLError)?.code.rawValue ?? 0)"
                #if !canImport(FoundationNetworking)
                case .redirect: "redirect"
                #endif
                }
            }.joined(separator: ", ")
        }
    }
}
