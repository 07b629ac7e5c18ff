#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
@testable import URLStubsTesting
import XCTest

/// A cassette given in stubScopeOptions as a file or a name with a directory
/// (UsingXCTest.md): a name without one fails each test method before it runs.
final class StubbedTestCaseBareCassetteNameTests: FailureCapturingTestCase {
    override var stubScopeOptions: StubScopeOptions {
        StubScopeOptions(cassette: .named("users"))
    }

    private let ran = Shared(false)

    override func invokeTest() {
        super.invokeTest()
        XCTAssertFalse(ran.value, "the method ran though its cassette has no directory")
        XCTAssertEqual(captured.map(\.description), [
            "URLStubs: the cassette .named(\"users\") has no directory, and XCTest does not say which file the test is in, so there is no Cassettes/ next to it. Give the directory (.named(\"users\", in: directory)) or the file (.at(url)).",
        ])
    }

    func testABareCassetteNameFailsBeforeTheMethodRuns() {
        ran.value = true
    }
}
