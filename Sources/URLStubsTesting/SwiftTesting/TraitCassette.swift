import Foundation
import Testing
import URLStubs

/// The cassette a `.stubbed(cassette:)` trait gives each test case.
struct TraitCassette: Sendable {
    /// The file's name (`.har` is added unless it ends with it), or `nil` for one
    /// file per test case.
    let name: String?
    let mode: CassetteMode
    /// Where the files go; `nil` for `Cassettes/` next to the file the trait is in.
    let directory: URL?
    let redaction: Redaction
    /// How requests are matched with the cassette's entries.
    let matching: CassetteMatching
    /// The path of the file the trait is written in.
    let traitFile: String

    /// The cassette file of `test`: `<directory>/<name>.har`, or else
    /// `<directory>/<suite>/<test>.har`.
    ///
    /// - Throws: ``TraitCassetteError/parameterized(test:)`` for a parameterized test
    ///   case with no name given: its cases would share one file.
    func file(for test: Test, testCase: Test.Case?) throws -> URL {
        let traitURL = URL(fileURLWithPath: traitFile)
        let directory = self.directory ?? traitURL.deletingLastPathComponent().appendingPathComponent("Cassettes", isDirectory: true)
        if let name {
            // "users.har" names the file users.har, as "users" does, not users.har.har.
            let base = name.lowercased().hasSuffix(".har") ? String(name.dropLast(4)) : name
            return directory.appendingPathComponent(Self.fileName(base) + ".har")
        }
        if testCase?.isParameterized == true {
            throw TraitCassetteError.parameterized(test: test.name)
        }
        // The suite's name (nested suites joined by dots), or the file's for a test
        // outside any suite: two suites of one file may have tests of one name.
        let suites = test.id.nameComponents.dropLast()
        let group = suites.isEmpty ? traitURL.deletingPathExtension().lastPathComponent : suites.joined(separator: ".")
        return directory
            .appendingPathComponent(Self.fileName(group), isDirectory: true)
            .appendingPathComponent(Self.fileName(test.name) + ".har")
    }

    /// `text` with every character that is awkward in a file name replaced by `-`:
    /// `fetchUser(id:)` becomes `fetchUser-id`.
    static func fileName(_ text: String) -> String {
        var name = ""
        for character in text {
            if character.isLetter || character.isNumber || character == "_" || character == "." {
                name.append(character)
            } else if !name.hasSuffix("-") {
                name.append("-")
            }
        }
        while name.hasSuffix("-") {
            name.removeLast()
        }
        return name.isEmpty ? "cassette" : name
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
