import Foundation
import Testing

/// Keeps Documentation/ComingFrom.md and ComingFromTests.swift in step: every
/// "after" block of the guide is a snippet of the test file, line for line, and
/// every snippet of the test file is in the guide.
@Suite("The migration guide", .timeLimit(.minutes(1)))
struct ComingFromGuideTests {
    /// The repository's root, found from this file's path.
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Migration
        .deletingLastPathComponent() // URLStubsTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent()

    /// The named snippets of the guide: each `<!-- snippet: NAME -->` line followed
    /// by a fenced Swift block.
    static func guideSnippets(_ text: String) -> [String: String] {
        var snippets: [String: String] = [:]
        for match in text.matches(of: /<!-- snippet: (\S+) -->\n```swift\n((?:.*\n)*?)```/) {
            snippets[String(match.output.1)] = String(match.output.2)
        }
        return snippets
    }

    /// The named snippets of the test file: the lines between `// snippet: NAME` and
    /// `// end snippet`.
    static func sourceSnippets(_ text: String) -> [String: String] {
        var snippets: [String: String] = [:]
        for match in text.matches(of: /\/\/ snippet: (\S+)\n((?:.*\n)*?)\/\/ end snippet/) {
            snippets[String(match.output.1)] = String(match.output.2)
        }
        return snippets
    }

    @Test("every after block of the guide is compiled, identical, in ComingFromTests.swift")
    func guideMatchesTests() throws {
        let guide = try String(contentsOf: Self.root.appending(path: "Documentation/ComingFrom.md"), encoding: .utf8)
        let source = try String(contentsOf: Self.root.appending(path: "Tests/URLStubsTests/Migration/ComingFromTests.swift"), encoding: .utf8)
        let documented = Self.guideSnippets(guide)
        let compiled = Self.sourceSnippets(source)
        #expect(documented.keys.sorted() == [
            "adapter", "closure", "mocker", "mocker-shared", "ohhttpstubs", "ohhttpstubs-conditions", "ohhttpstubs-shared",
            "per-test-protocol", "protocol", "replay-cassette", "replay-stubs", "session-subclass", "static-protocol",
        ])
        #expect(documented.keys.sorted() == compiled.keys.sorted())
        for (name, code) in documented {
            #expect(code == compiled[name], "the guide's \(name) snippet differs from ComingFromTests.swift")
        }
    }

    @Test("the snippet readers find a block and notice a one-character change")
    func readersAreStrict() {
        let guide = "text\n<!-- snippet: demo -->\n```swift\nlet a = 1\n```\nmore\n"
        let source = "// snippet: demo\nlet a = 1\n// end snippet\n"
        #expect(Self.guideSnippets(guide) == ["demo": "let a = 1\n"])
        #expect(Self.sourceSnippets(source) == ["demo": "let a = 1\n"])
        #expect(Self.sourceSnippets(source.replacingOccurrences(of: "1", with: "2")) != Self.guideSnippets(guide))
    }
}
