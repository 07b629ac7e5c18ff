#if !canImport(Darwin)
@testable import URLStubsTesting
import XCTest

/// A `StubbedTestCase` that captures the failures URLStubs records on it instead
/// of failing, so that its tests can assert what was recorded and where (override
/// `invokeTest()`, call `super`, then read ``captured``). It removes the artifacts
/// those failures wrote: the suite leaves nothing behind.
class FailureCapturingTestCase: StubbedTestCase {
    /// One failure recorded on the test method.
    struct Failure: Equatable {
        var description: String
        var file: String
        var line: Int
    }

    private let failures = Shared<[Failure]>([])

    /// The failures URLStubs recorded in the test method that ran last.
    var captured: [Failure] {
        failures.value
    }

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if description.hasPrefix("URLStubs:") || description.hasPrefix("The stub ") {
            failures.value.append(Failure(description: description, file: filePath, line: lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    override class func tearDown() {
        FailureArtifacts.removeRunDirectory()
        super.tearDown()
    }

    override func invokeTest() {
        failures.value = []
        super.invokeTest()
    }
}
#endif
