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

    /// Whether `description` is a failure URLStubs records, rather than one of the
    /// test's own assertions (which fail the test as usual).
    private static func isURLStubsFailure(_ description: String) -> Bool {
        description.hasPrefix("URLStubs:") || description.hasPrefix("The stub ")
    }

    #if canImport(Darwin)
    // Apple's XCTest records every failure as an issue; URLStubs records its own
    // with `record(_:)`, at the stub's file and line when it knows them.
    override func record(_ issue: XCTIssue) {
        guard Self.isURLStubsFailure(issue.compactDescription) else {
            super.record(issue)
            return
        }
        let location = issue.sourceCodeContext.location
        failures.value.append(Failure(description: issue.compactDescription, file: location?.fileURL.path ?? "", line: location?.lineNumber ?? 0))
    }
    #else
    // swift-corelibs-xctest has no issues: URLStubs records a description, a file
    // and a line.
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard Self.isURLStubsFailure(description) else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            return
        }
        failures.value.append(Failure(description: description, file: filePath, line: lineNumber))
    }
    #endif

    override class func tearDown() {
        FailureArtifacts.removeRunDirectory()
        super.tearDown()
    }

    override func invokeTest() {
        failures.value = []
        super.invokeTest()
    }
}
