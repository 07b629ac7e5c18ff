import Testing
import URLStubs
import XCTest

/// The one place that turns a scope's problems into test failures, in whichever
/// test framework is running.
///
/// Under Swift Testing each problem becomes an `Issue` of the running test case;
/// it must be called on that test's own task (the trait does so when its scope
/// ends), because Swift Testing attributes issues by task. Under XCTest each problem
/// is recorded as a failure of the running test case.
enum StubProblemReporter {
    /// Reports every problem of `problems`, each at its own source location, or at
    /// `fallback` when it has none (with neither, XCTest attributes the failure to
    /// the running test method); warnings do not fail the test.
    ///
    /// - Parameter testCase: The XCTest test case to record failures on when Swift
    ///   Testing is not running; `nil` records them on the current XCTest test.
    static func report(
        _ problems: [StubProblem],
        fallback: StubSourceLocation?,
        testCase: XCTestCase? = nil
    ) {
        for problem in problems {
            let location = problem.location ?? fallback
            if Test.current != nil, problem.isWarning {
                Issue.recordWarning(problem.message, at: location?.swiftTesting)
            } else if Test.current != nil, let location {
                Issue.record(Comment(rawValue: problem.message), sourceLocation: location.swiftTesting)
            } else if Test.current != nil {
                Issue.record(Comment(rawValue: problem.message))
            } else if problem.isWarning {
                // XCTest has no warnings: say it without failing the test.
                print("URLStubs warning: \(problem.message)" + (location.map { " (at \($0))" } ?? ""))
            } else {
                recordXCTestFailure(problem.message, at: location, on: testCase)
            }
        }
    }

    /// Reports that `what` was used where no stub scope is open.
    static func reportMissingScope(_ message: String, at location: StubSourceLocation) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: location.swiftTesting)
        } else {
            recordXCTestFailure(message, at: location, on: nil)
        }
    }

    /// Reports that an `XCTestCase`'s scope could not be set up as its options
    /// ask (its cassette cannot be used): the test method did not run.
    static func reportSetupFailure(_ error: any Error, testCase: XCTestCase) {
        recordXCTestFailure("\(error)", at: nil, on: testCase)
    }

    private static func recordXCTestFailure(_ message: String, at location: StubSourceLocation?, on testCase: XCTestCase?) {
        guard let testCase else {
            XCTFail(message + (location.map { " (at \($0))" } ?? ""))
            return
        }
        #if canImport(Darwin)
        if let location {
            let context = XCTSourceCodeContext(location: XCTSourceCodeLocation(filePath: location.filePath, lineNumber: location.line))
            testCase.record(XCTIssue(type: .assertionFailure, compactDescription: message, sourceCodeContext: context))
        } else {
            testCase.record(XCTIssue(type: .assertionFailure, compactDescription: message))
        }
        #else
        // Linux's XCTest needs a file and line; with none known, name the test.
        testCase.recordFailure(withDescription: message, inFile: location?.filePath ?? testCase.name, atLine: location?.line ?? 0, expected: true)
        #endif
    }
}

extension StubSourceLocation {
    /// The same location as Swift Testing spells it.
    var swiftTesting: SourceLocation {
        SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The same location as URLStubs spells it.
    init(_ location: SourceLocation) {
        self.init(fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column)
    }
}
