#if os(Linux) && compiler(>=6.3)
import Testing
import URLStubsTesting

/// The `.stubbed` trait's own work per test case, measured outside a test run:
/// its `provideScope(for:testCase:performing:)` called directly around an empty
/// test, as Swift Testing calls it around each test case.
///
/// Linux only: there Swift Testing is a library of the toolchain that any target
/// may link; on Apple platforms it is a framework of Xcode's that only test
/// bundles find at run time. What Swift Testing itself does to run a test's
/// traits (finding them, ordering them, calling them) is not included: it is the
/// same for any scoping trait.
///
/// Two differences from a test run, neither of which changes the trait's work
/// here: the test case is `nil` (Swift Testing passes the case it runs; a test
/// case can only be made by Swift Testing, and the trait reads it only to name a
/// cassette, which this test has none of), and the test is made by
/// `Test.__function`, the entry point the `@Test` macro expands to: an
/// underscored API, in the form Swift 6.3's Swift Testing has (hence the compiler
/// check: an older toolchain measures no trait).
enum TraitScopes {
    /// Whether this platform measures the trait.
    static let isMeasured = true

    /// A test the trait runs around: what the `@Test` macro makes for
    /// `@Test(.stubbed) func emptyTest() {}`.
    private static let test = Test.__function(
        named: "emptyTest()",
        in: Optional<Never.Type>.none,
        xcTestCompatibleSelector: nil,
        traits: [StubbedTrait.stubbed],
        sourceLocation: SourceLocation(fileID: "URLStubsBenchmarks/TraitScopes.swift", filePath: #filePath, line: #line, column: 1),
        testFunction: {}
    )

    /// Runs `count` empty tests through the trait, isolated to the caller's actor;
    /// one "request" per test. A test case the trait failed is counted as unexpected.
    static func measure(_ count: Int, isolation: isolated (any Actor)? = #isolation) async -> BatchSample {
        let trait = StubbedTrait.stubbed
        var failed = 0
        let meter = BatchMeter()
        for _ in 0..<count {
            do {
                try await trait.provideScope(for: test, testCase: nil) {}
            } catch {
                failed += 1
            }
        }
        return meter.stop(requests: count, requestMicroseconds: [], unexpected: failed)
    }
}
#else
/// The `.stubbed` trait's own work per test case: not measured on this platform,
/// where Swift Testing is a framework of Xcode's that only test bundles find at
/// run time (nor with a toolchain older than Swift 6.3, see the Linux form).
enum TraitScopes {
    /// Whether this platform measures the trait.
    static let isMeasured = false

    /// Never called here (see ``isMeasured``).
    static func measure(_ count: Int, isolation: isolated (any Actor)? = #isolation) async -> BatchSample {
        BatchMeter().stop(requests: count, requestMicroseconds: [], unexpected: 0)
    }
}
#endif
