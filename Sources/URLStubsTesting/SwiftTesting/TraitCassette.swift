import Foundation
import Testing
@_spi(Integration) import URLStubs

/// The test case a `.stubbed` trait's cassette is named after.
enum TraitCassette {
    /// The suite (or file) and function name of `test`, that a
    /// `CassetteFile.perTestCase` cassette is named after, or `nil` when
    /// `options` ask for no such cassette.
    ///
    /// - Throws: ``TraitCassetteError/parameterized(test:)`` for a parameterized test
    ///   case with a cassette per test case: its cases would share one file.
    static func testCase(of test: Test, testCase: Test.Case?, options: StubScopeOptions) throws -> (group: String, test: String)? {
        guard options.cassette?.isPerTestCase == true else {
            return nil
        }
        if testCase?.isParameterized == true {
            throw TraitCassetteError.parameterized(test: test.name)
        }
        // The suite's name (nested suites joined by dots), or the file's for a test
        // outside any suite: two suites of one file may have tests of one name.
        let suites = test.id.nameComponents.dropLast()
        let file = URL(fileURLWithPath: test.sourceLocation.filePath).deletingPathExtension().lastPathComponent
        return (suites.isEmpty ? file : suites.joined(separator: "."), test.name)
    }
}

/// Why the `.stubbed(cassette:)` trait cannot give a test case its cassette.
enum TraitCassetteError: Error, CustomStringConvertible {
    /// A parameterized test's cases cannot tell their files apart.
    case parameterized(test: String)

    var description: String {
        switch self {
        case let .parameterized(test):
            "URLStubs: \(test) is parameterized, and its cases would share one cassette file. Call withStubScope(cassette:) inside the test with a file per argument."
        }
    }
}
