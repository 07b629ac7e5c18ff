import Foundation
import Testing
@_spi(Integration) import URLStubs

/// Counts, over every test case of a suite, the requests each baseline stub of the
/// suite's `.stubbed { … }` trait answered, and reports the stubs that answered
/// none when the suite ends.
final class BaselineTally: @unchecked Sendable {
    // @unchecked: `counts` and `cases` are read and written only while `lock` is held.
    /// The tally of the running suite.
    @TaskLocal static var current: BaselineTally?

    /// Where the trait that owns the tally was written.
    let owner: StubSourceLocation
    /// The tally of the suite this one's suite is nested in, if it has one: its
    /// test cases are that suite's too, and may use its baseline.
    private let enclosing: BaselineTally?
    private let lock = NSLock()
    private var counts: [Key: Int] = [:]
    private var cases = 0

    /// A baseline stub, named by its pattern and registration site.
    struct Key: Hashable {
        let pattern: String
        let location: StubSourceLocation
    }

    init(owner: StubSourceLocation, enclosing: BaselineTally? = nil) {
        self.owner = owner
        self.enclosing = enclosing
    }

    /// The tally of the trait written at `owner`: this one or an enclosing one.
    func tally(ownedBy owner: StubSourceLocation) -> BaselineTally? {
        self.owner == owner ? self : enclosing?.tally(ownedBy: owner)
    }

    /// Runs the suite's `body` with a tally, then reports every baseline stub that
    /// no test case used, as a warning at the line that registered it.
    static func run(for suite: Test, baseline owner: StubSourceLocation?, _ body: () async throws -> Void) async throws {
        guard let owner, current?.tally(ownedBy: owner) == nil else {
            try await body() // A suite nested under the same trait: its tally counts.
            return
        }
        let tally = BaselineTally(owner: owner, enclosing: current)
        try await $current.withValue(tally) { try await body() }
        for (message, location) in tally.unusedStubs(suite: suite.name) {
            Issue.recordWarning(message, at: location.swiftTesting)
        }
    }

    /// A message and a location for each baseline stub that no test case used, in
    /// the order of their lines; none when no test case ran.
    func unusedStubs(suite: String) -> [(String, StubSourceLocation)] {
        let (testCases, unused) = lock.withLock { (cases, counts.filter { $0.value == 0 }.map(\.key)) }
        guard testCases > 0 else { return [] }
        return unused
            .sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
            .map { (IntegrationMessages.unusedBaseline($0.pattern, at: $0.location, suite: suite, testCases: testCases), $0.location) }
    }

    /// Notes that `stubs` are baseline stubs.
    func markBaseline(_ stubs: [StubUsage]) async {
        lock.withLock {
            for stub in stubs {
                counts[Key(pattern: stub.pattern, location: stub.location), default: 0] += 0
            }
        }
    }

    /// Adds the use one test case's scope made of the baseline stubs, to this
    /// tally and to those of the suites it is nested in.
    func add(_ usage: [StubUsage]) {
        lock.withLock {
            cases += 1
            for stub in usage {
                let key = Key(pattern: stub.pattern, location: stub.location)
                if let count = counts[key] {
                    counts[key] = count + stub.hits
                }
            }
        }
        enclosing?.add(usage)
    }
}
