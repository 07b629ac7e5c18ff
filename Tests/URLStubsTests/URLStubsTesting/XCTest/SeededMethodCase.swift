import Foundation
import URLStubsTesting
import XCTest

/// A `StubbedTestCase` whose one method seeds its scope's faults and passes: what
/// an exit test runs to read the seed line the test case prints. Its method is not
/// named `test…`, so XCTest never runs it on its own.
final class SeededMethodCase: StubbedTestCase {
    override var stubScopeOptions: StubScopeOptions {
        StubScopeOptions(seed: 4_242)
    }

    /// Injects faults for a URL no request asks for (the scope is seeded, nothing
    /// fails), blocking until the registry has them: the method is synchronous.
    #if canImport(Darwin)
    @objc
    #endif
    func seededMethod() {
        let scope = stubScope
        let done = DispatchSemaphore(value: 0)
        Task {
            await scope.injectFaults(.get("https://api.example.com/never-asked"), rate: 1)
            done.signal()
        }
        done.wait()
    }

    /// Runs ``seededMethod()`` as XCTest runs a test method: `invokeTest()` inside
    /// a test run.
    static func runSeededMethod() {
        #if canImport(Darwin)
        let testCase = SeededMethodCase(selector: #selector(seededMethod))
        #else
        let testCase = SeededMethodCase(name: "seededMethod") { ($0 as! SeededMethodCase).seededMethod() }
        #endif
        testCase.run()
    }
}
