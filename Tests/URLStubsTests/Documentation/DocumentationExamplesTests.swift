import Foundation
import Testing

/// Keeps every code block of the documentation honest: README.md, every Markdown file
/// under Documentation/, and every article of the DocC catalogs under Sources/.
///
/// A Swift block is either
/// - a snippet: the line before it is `<!-- snippet: NAME -->`, and a test source
///   file holds the same lines, compiled and run, between `// snippet: NAME` and
///   `// end snippet` (their indentation removed); or
/// - deliberately partial: the line before it is `<!-- partial: why -->`, and it is
///   one of the blocks listed in ``partialBlocks``.
///
/// Blocks in other languages are shown, not compiled: `text` (messages and output)
/// and `sh` (commands; README's are checked to be the two commands), or `json`
/// marked as a snippet, whose text must appear verbatim in a test source file.
@Suite("Every documentation example", .timeLimit(.minutes(1)))
struct DocumentationExamplesTests {
    /// The repository's root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Documentation
        .deletingLastPathComponent() // URLStubsTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent()

    /// The blocks marked partial, each as "file: its first line". Adding, removing or
    /// changing the first line of a partial block means changing this list.
    static let partialBlocks: [String] = [
        "Documentation/ComingFrom.md: final class MockHTTPClient: HTTPClient, @unchecked Sendable {",
        "Documentation/ComingFrom.md: func testLoaderAsksForUser() async throws {",
        "Documentation/ComingFrom.md: final class MockURLSession: URLSession {",
        "Documentation/ComingFrom.md: final class MockURLProtocol: URLProtocol {",
        "Documentation/ComingFrom.md: final class AdaProtocol: MockURLProtocol {}",
        "Documentation/ComingFrom.md: import OHHTTPStubs",
        "Documentation/ComingFrom.md: import Mocker",
        "Documentation/Platforms.md: try StubInterception.interceptSharedSession()          // URLSession.shared",
        "README.md: .package(url: \"https://github.com/your-org/URLStubs.git\", from: \"0.1.0\"),",
        "Sources/URLStubs/URLStubs.docc/DirectAnswers.md: protocol HTTPClient: Sendable {",
        "Sources/URLStubs/URLStubs.docc/FaultsAndOrdering.md: // Chosen faults for one host, a fixed seed, uniform latency.",
        "Sources/URLStubs/URLStubs.docc/GettingStarted.md: .package(url: \"https://github.com/your-org/URLStubs.git\", from: \"0.1.0\"),",
        "Sources/URLStubs/URLStubs.docc/LinuxAndApplePlatforms.md: try StubInterception.interceptSharedSession()          // URLSession.shared",
        "Sources/URLStubs/URLStubs.docc/RecordingTraffic.md: // Let some requests reach the network (the default is: nothing does).",
        "Sources/URLStubs/URLStubs.docc/ServingOverLoopback.md: try await withStubScope { scope in",
        "Sources/URLStubs/URLStubs.docc/StreamsAndRedirects.md: // Chunks, the first at once and then one every 50 ms (Transfer-Encoding: chunked).",
        "Sources/URLStubs/URLStubs.docc/StreamsAndRedirects.md: await scope.stub(.post(\"https://api.example.com/orders\"), with: .redirect(to: \"/orders/42\", status: 303))",
        "Sources/URLStubs/URLStubs.docc/StubbingRequests.md: // Patterns: a method and an absolute URL, a URL template, or a path on any host.",
    ]

    // MARK: - Reading the files

    /// A fenced block of a documentation file.
    struct Block: Equatable {
        /// The file, relative to the repository's root.
        var file: String
        /// The line of the opening fence, from 1.
        var line: Int
        /// The language after the opening fence (empty when none is given).
        var language: String
        /// The line before the opening fence, when it is an HTML comment.
        var marker: String?
        /// The lines between the fences, without the fence's indentation.
        var code: String

        /// The snippet name of a `<!-- snippet: NAME -->` marker.
        var snippetName: String? {
            marker.flatMap { $0.wholeMatch(of: /<!-- snippet: ([a-z0-9-]+) -->/)?.output.1 }.map(String.init)
        }

        /// The reason of a `<!-- partial: why -->` marker.
        var partialReason: String? {
            marker.flatMap { $0.wholeMatch(of: /<!-- partial: (.+) -->/)?.output.1 }.map(String.init)
        }

        var firstLine: String { String(code.prefix { $0 != "\n" }) }
    }

    /// The fenced blocks of `text`, the Markdown file `file`.
    static func blocks(in text: String, file: String) -> [Block] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let indent = line.prefix { $0 == " " }.count
            let trimmed = line.dropFirst(indent)
            guard trimmed.hasPrefix("```") else {
                index += 1
                continue
            }
            let language = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            let previous = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
            var code: [String] = []
            var end = index + 1
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" {
                let body = lines[end]
                code.append(String(body.dropFirst(min(indent, body.prefix { $0 == " " }.count))))
                end += 1
            }
            blocks.append(Block(
                file: file,
                line: index + 1,
                language: language,
                marker: previous.hasPrefix("<!--") ? previous : nil,
                code: code.map { $0 + "\n" }.joined()
            ))
            index = end + 1
        }
        return blocks
    }

    /// The snippets of a test source file: the lines between `// snippet: NAME` and
    /// `// end snippet`, with the indentation of the `// snippet:` line removed.
    static func sourceSnippets(_ text: String) -> [String: String] {
        var snippets: [String: String] = [:]
        for match in text.matches(of: /(?m)^( *)\/\/ snippet: ([a-z0-9-]+)\n((?:.*\n)*?) *\/\/ end snippet$/) {
            let indent = match.output.1.count
            snippets[String(match.output.2)] = match.output.3
                .split(separator: "\n", omittingEmptySubsequences: false)
                .dropLast()
                .map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) + "\n" }
                .joined()
        }
        return snippets
    }

    /// Every file under `folder` (relative to the root) whose name ends with `suffix`,
    /// relative to the root, sorted.
    static func files(under folder: String, endingWith suffix: String) -> [String] {
        let base = root.appending(path: folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        let prefix = root.standardizedFileURL.path + "/"
        return walker.compactMap { $0 as? URL }
            .map { $0.standardizedFileURL.path }
            .filter { $0.hasSuffix(suffix) && !$0.contains("/.build/") }
            .map { String($0.dropFirst(prefix.count)) }
            .sorted()
    }

    /// README.md, the Markdown files of Documentation/, and the articles of the DocC catalogs.
    static var documentationFiles: [String] {
        ["README.md"] + files(under: "Documentation", endingWith: ".md")
            + files(under: "Sources", endingWith: ".md").filter { $0.contains(".docc/") }
    }

    static func read(_ file: String) throws -> String {
        try String(contentsOf: root.appending(path: file), encoding: .utf8)
    }

    /// Every block of every documentation file.
    static func allBlocks() throws -> [Block] {
        try documentationFiles.flatMap { try blocks(in: read($0), file: $0) }
    }

    /// Every snippet of every test source file, by name, with the file it is in.
    static func allSourceSnippets() throws -> [String: (file: String, code: String)] {
        var all: [String: (file: String, code: String)] = [:]
        for file in files(under: "Tests", endingWith: ".swift") {
            for (name, code) in sourceSnippets(try read(file)) {
                if let other = all[name] {
                    Issue.record("the snippet \(name) is in both \(other.file) and \(file): snippet names must be unique")
                }
                all[name] = (file, code)
            }
        }
        return all
    }

    // MARK: - The checks

    @Test("the documentation files are found: README, Documentation/ and both DocC catalogs")
    func filesAreFound() {
        let files = Self.documentationFiles
        #expect(files.contains("README.md"))
        #expect(files.contains("Documentation/ComingFrom.md"))
        #expect(files.contains("Sources/URLStubs/URLStubs.docc/URLStubs.md"))
        #expect(files.contains("Sources/URLStubsTesting/URLStubsTesting.docc/URLStubsTesting.md"))
    }

    @Test("every Swift block of the documentation is compiled, identical, as a snippet of a test file, or is one of the listed partial blocks")
    func everySwiftBlockIsCompiledOrListed() throws {
        let snippets = try Self.allSourceSnippets()
        var partial: [String] = []
        var compiled = 0
        for block in try Self.allBlocks() where block.language == "swift" {
            let place = "\(block.file):\(block.line)"
            if let name = block.snippetName {
                guard let source = snippets[name] else {
                    Issue.record("\(place): the snippet \(name) is in no test file; compile it there between // snippet: \(name) and // end snippet")
                    continue
                }
                #expect(block.code == source.code, "\(place): the snippet \(name) differs from \(source.file)")
                compiled += 1
            } else if let reason = block.partialReason {
                #expect(!reason.trimmingCharacters(in: .whitespaces).isEmpty, "\(place): say why the block is partial")
                partial.append("\(block.file): \(block.firstLine)")
            } else {
                Issue.record("\(place): a Swift block neither compiled nor marked: put <!-- snippet: NAME --> before it and compile it in a test file, or mark it <!-- partial: why --> and list it in DocumentationExamplesTests.partialBlocks")
            }
        }
        #expect(partial.sorted() == Self.partialBlocks.sorted())
        #expect(compiled > 0)
    }

    @Test("every snippet of a test file is shown by some documentation file")
    func everySnippetIsShown() throws {
        let shown = Set(try Self.allBlocks().compactMap(\.snippetName))
        let unshown = try Self.allSourceSnippets().keys.filter { !shown.contains($0) }.sorted()
        #expect(unshown == [], "snippets no documentation file shows: remove them, or show them")
    }

    @Test("every block that is not Swift is sample output (text), commands (sh), or JSON marked as a snippet that a test file holds verbatim")
    func otherBlocksAreKnown() throws {
        let sources = try Self.files(under: "Tests", endingWith: ".swift").map(Self.read)
        for block in try Self.allBlocks() where block.language != "swift" {
            let place = "\(block.file):\(block.line)"
            switch block.language {
            case "text", "sh":
                #expect(block.snippetName == nil && block.partialReason == nil, "\(place): a \(block.language) block is not compiled; it needs no marker")
            case "json":
                #expect(block.snippetName != nil, "\(place): mark the JSON block as a snippet")
                #expect(sources.contains { $0.contains(block.code) }, "\(place): the JSON block is in no test file, verbatim")
            default:
                Issue.record("\(place): a block in \"\(block.language)\": give it a language (swift, text, sh or json)")
            }
        }
    }

    @Test("README's commands are exactly the two commands, and .ci/run runs the test command as README writes it")
    func readmeCommands() throws {
        let commands = try Self.blocks(in: Self.read("README.md"), file: "README.md").filter { $0.language == "sh" }
        #expect(commands.map(\.code) == [
            "swift run -c release URLStubsBenchmarks   # main job: the benchmarks (four to eight minutes after the build, by machine)\n"
                + "swift test                                # the test suite\n",
        ])
        let run = try Self.read(".ci/run")
        #expect(run.contains("\nswift test 2>&1 |"))
    }

    @Test("README.md stays short: at most 10 KB (the rest lives in the DocC articles and Documentation/)")
    func readmeIsShort() throws {
        let size = try Data(contentsOf: Self.root.appending(path: "README.md")).count
        #expect(size <= 10_240)
    }

    @Test("every relative link of the documentation points at a file that exists")
    func relativeLinksResolve() throws {
        for file in Self.documentationFiles {
            let text = try Self.read(file)
            let folder = Self.root.appending(path: file).deletingLastPathComponent()
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.output.1)
                if target.contains("://") || target.hasPrefix("#") || target.hasPrefix("doc:") || target.hasPrefix("mailto:") {
                    continue
                }
                let path = String(target.prefix { $0 != "#" })
                let exists = FileManager.default.fileExists(atPath: folder.appending(path: path).standardizedFileURL.path)
                #expect(exists, "\(file): the link \(target) points at nothing")
            }
        }
    }

    @Test("the readers find blocks, markers and indented snippets, and notice a one-character change")
    func readersAreStrict() {
        let document = """
            text
            <!-- snippet: demo -->
            ```swift
            let a = 1
              .b
            ```
            - a list item:

              <!-- partial: shown alone -->
              ```swift
              call()
              ```

            ```text
            output
            ```
            """
        let blocks = Self.blocks(in: document, file: "x.md")
        #expect(blocks.map(\.language) == ["swift", "swift", "text"])
        #expect(blocks.map(\.snippetName) == ["demo", nil, nil])
        #expect(blocks.map(\.partialReason) == [nil, "shown alone", nil])
        #expect(blocks.map(\.code) == ["let a = 1\n  .b\n", "call()\n", "output\n"])
        #expect(blocks.map(\.line) == [3, 10, 14])
        let source = "x\n    // snippet: demo\n    let a = 1\n      .b\n    // end snippet\n"
        #expect(Self.sourceSnippets(source) == ["demo": "let a = 1\n  .b\n"])
        #expect(Self.sourceSnippets(source.replacingOccurrences(of: "1", with: "2"))["demo"] != blocks[0].code)
        // A mention of the marker inside a comment's text is not a snippet.
        #expect(Self.sourceSnippets("/// between `// snippet: NAME` and `// end snippet`\n") == [:])
    }
}
