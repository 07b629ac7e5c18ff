#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The actor that owns every scope's namespace: its stubs, its request log and its
/// bookkeeping.
///
/// All matching, counting and recording happens here, so a stub's uses are taken
/// atomically however many requests race for them. The URL protocol never waits for
/// the actor: it hands each request over in a Swift `Task` and delivers the reply
/// from that task.
actor StubRegistry {
    /// The registry of the process.
    static let shared = StubRegistry()

    /// How many unscoped requests the global scope's log keeps (the most recent).
    static let globalLogLimit = 10_000

    var namespaces: [UInt64: Namespace]
    private var nextScopeID: UInt64 = 1
    private var nextStubID: UInt64 = 1
    var nextRequestNumber: UInt64 = 1
    var nextWaiterID: UInt64 = 1

    init() {
        let global = Namespace(scope: .global, name: nil, ancestors: [], location: nil)
        namespaces = [StubScope.global.id: global]
    }

    /// Opens a new namespace inside `parent` (or at the top when `parent` is nil).
    func openScope(name: String?, parent: StubScope?, location: StubSourceLocation) -> (StubScope, title: String) {
        let scope = StubScope(id: nextScopeID)
        nextScopeID += 1
        var ancestors: [StubScope] = []
        if let parent, !parent.isGlobal {
            ancestors = [parent] + (namespaces[parent.id]?.ancestors ?? [])
        }
        let namespace = Namespace(scope: scope, name: name, ancestors: ancestors, location: location)
        namespaces[scope.id] = namespace
        return (scope, namespace.title)
    }

    /// Ends `scope`: verifies its stubs' expectations, fails its requests still in
    /// flight and its waiters, frees its namespace, and returns every problem.
    ///
    /// The requests in flight are failed after leaving the actor, because handing
    /// an answer over may wait for Foundation's work queue.
    nonisolated func endScope(_ scope: StubScope) async -> [StubProblem] {
        let (problems, abandoned) = await closeScope(scope)
        for (exchange, error) in abandoned {
            exchange.complete(with: .failure(error), cancellingWork: true)
        }
        return problems
    }

    private func closeScope(_ scope: StubScope) -> ([StubProblem], [(StubExchange, URLError)]) {
        guard !scope.isGlobal, let namespace = namespaces.removeValue(forKey: scope.id) else {
            return ([], [])
        }
        var abandoned: [(StubExchange, URLError)] = []
        var warnings: [StubProblem] = []
        for flight in namespace.inFlight.values.sorted(by: { $0.request.sequenceNumber < $1.request.sequenceNumber }) {
            let message = StubFailure.endedInFlightMessage(flight.request, in: namespace.title)
            abandoned.append((flight.exchange, StubFailure.error(message, url: flight.request.url)))
            warnings.append(StubProblem(kind: .abandonedRequest(flight.request), message: message, location: namespace.location))
        }
        for waiter in namespace.waiters.values {
            waiter.resume(with: .failure(RequestWaitError.scopeEnded(scope: namespace.title, pattern: waiter.pattern.description)))
        }
        return (namespace.problems + namespace.entries.compactMap(Self.unmetExpectation) + warnings, abandoned)
    }

    private static func unmetExpectation(of entry: StubEntry) -> StubProblem? {
        let expectation = entry.expectation
        let answered = entry.hits + entry.violations
        let isMet = answered >= expectation.minimum && expectation.maximum.map { answered <= $0 } ?? true
        guard !isMet, entry.refusal == nil else { return nil }
        let times = answered == 1 ? "1 time" : "\(answered) times"
        return StubProblem(
            kind: .unmetExpectation(stub: entry.pattern.description, expected: expectation, actual: answered),
            message: "The stub \(entry.pattern) expected \(expectation) but was requested \(times).",
            location: entry.location
        )
    }

    /// Whether `scope` is open (the global scope always is).
    func isOpen(_ scope: StubScope) -> Bool {
        namespaces[scope.id] != nil
    }

    /// Whether `scope` was opened by this registry at some point.
    func wasOpened(_ scope: StubScope) -> Bool {
        scope.id < nextScopeID
    }

    /// Registers a stub in `scope`; returns its id, or `nil` when the scope has ended.
    func register(
        _ pattern: RequestPattern,
        source: StubEntry.Source,
        expectation: StubExpectation,
        location: StubSourceLocation,
        in scope: StubScope
    ) -> UInt64? {
        guard let namespace = namespaces[scope.id] else {
            let reason = wasOpened(scope) ? "\(scope) has already ended" : "no stub scope is open there"
            Self.warn("stub(\(pattern)) at \(location) was ignored: \(reason).")
            return nil
        }
        let entry = StubEntry(id: nextStubID, pattern: pattern, source: source, expectation: expectation, location: location)
        nextStubID += 1
        if let problem = pattern.problem {
            record(.invalidStub(stub: pattern.description, reason: problem), "The stub \(pattern) cannot be used: \(problem).", at: location, in: namespace)
            namespace.add(entry)
            return entry.id
        }
        if let refusal = entry.refusal {
            record(.invalidStub(stub: pattern.description, reason: refusal), "The stub \(pattern) was refused: \(refusal).", at: location, in: namespace)
        }
        namespace.add(entry)
        return entry.id
    }

    /// Removes the stub `id` from `scope`; returns whether it was there.
    func removeStub(_ id: UInt64, from scope: StubScope) -> Bool {
        namespaces[scope.id]?.remove(stubID: id) ?? false
    }

    /// Removes every stub of `scope`, keeping its request log.
    func removeAllStubs(from scope: StubScope) {
        namespaces[scope.id]?.removeAll()
    }

    /// How many requests the stub `id` of `scope` has answered, or `nil` when the
    /// stub or its scope is gone.
    func hits(ofStub id: UInt64, in scope: StubScope) -> Int? {
        namespaces[scope.id]?.entries.first { $0.id == id }?.hits
    }

    /// The requests `scope` received, in order.
    func requests(in scope: StubScope) -> [RecordedRequest] {
        namespaces[scope.id]?.requests ?? []
    }

    func record(_ kind: StubProblem.Kind, _ message: String, at location: StubSourceLocation?, in namespace: Namespace) {
        if namespace.scope.isGlobal {
            Self.warn(message)
        } else {
            namespace.problems.append(StubProblem(kind: kind, message: message, location: location))
        }
    }

    /// Writes a warning that no test owns to standard error.
    static func warn(_ message: String) {
        let text = message.hasPrefix("URLStubs: ") ? String(message.dropFirst("URLStubs: ".count)) : message
        FileHandle.standardError.write(Data(("URLStubs warning: " + text + "\n").utf8))
    }
}
