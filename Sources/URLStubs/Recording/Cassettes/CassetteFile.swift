import Foundation

/// Which HAR file a scope's cassette is: a file you name by its URL, a file named
/// in a `Cassettes` directory, or one file per test case.
///
/// Give it as ``StubScopeOptions/cassette``, or to the `.stubbed(cassette:)`
/// trait, where a string literal names the file (`"users"` is `.named("users")`):
///
/// ```swift
/// @Test(.stubbed(cassette: .perTestCase))   // Cassettes/<suite>/<test>.har
/// @Test(.stubbed(cassette: "users"))        // Cassettes/users.har
/// ```
///
/// `Cassettes/` is next to the source file that opened the scope (the file the
/// trait or the `withStubScope` call is written in) unless a directory is given.
public struct CassetteFile: Sendable, Hashable {
    enum Place: Sendable, Hashable {
        case file(URL)
        case named(String, directory: URL?)
        case perTestCase(directory: URL?)
    }

    let place: Place

    /// The file at `url`.
    public static func at(_ url: URL) -> CassetteFile {
        CassetteFile(place: .file(url))
    }

    /// `<directory>/<name>.har`, with `directory` by default `Cassettes/` next to
    /// the source file that opened the scope. `"users"` and `"users.har"` both name
    /// `users.har`. Give a name only to one test case at a time: two scopes
    /// recording one file at once is refused.
    public static func named(_ name: String, in directory: URL? = nil) -> CassetteFile {
        CassetteFile(place: .named(name, directory: directory))
    }

    /// One file for each test case under the `.stubbed` trait:
    /// `Cassettes/<suite name>/<test function name>.har` next to the trait's source
    /// file. A parameterized test's cases cannot tell their files apart and are
    /// refused; `withStubScope`, outside a trait, refuses it too (name the file).
    public static var perTestCase: CassetteFile {
        CassetteFile(place: .perTestCase(directory: nil))
    }

    /// One file for each test case under the `.stubbed` trait, in `directory`:
    /// `<directory>/<suite name>/<test function name>.har`.
    public static func perTestCase(in directory: URL) -> CassetteFile {
        CassetteFile(place: .perTestCase(directory: directory))
    }

    /// Whether this is one file for each test case (``perTestCase``).
    @_spi(Integration)
    public var isPerTestCase: Bool {
        if case .perTestCase = place {
            return true
        }
        return false
    }

    /// The file this names, for a scope opened in the source file `sourceFile`;
    /// `testCase` is the suite (or file) and function name of the test case, when
    /// the scope is a test case's. With no `sourceFile` (XCTest does not tell it),
    /// a cassette without a directory cannot be placed.
    ///
    /// - Throws: ``CassetteError/noTestCase(cassette:)`` for ``perTestCase``
    ///   without a test case, ``CassetteError/noDirectory(cassette:)`` for one
    ///   without a directory and no `sourceFile`.
    @_spi(Integration)
    public func url(openedIn sourceFile: String?, testCase: (group: String, test: String)?) throws(CassetteError) -> URL {
        func cassettes(_ directory: URL?) throws(CassetteError) -> URL {
            if let directory {
                return directory
            }
            guard let sourceFile else {
                throw CassetteError.noDirectory(cassette: description)
            }
            return URL(fileURLWithPath: sourceFile).deletingLastPathComponent().appendingPathComponent("Cassettes", isDirectory: true)
        }
        switch place {
        case let .file(url):
            return url
        case let .named(name, directory):
            // "users.har" names the file users.har, as "users" does, not users.har.har.
            let base = name.lowercased().hasSuffix(".har") ? String(name.dropLast(4)) : name
            return try cassettes(directory).appendingPathComponent(Self.fileName(base) + ".har")
        case let .perTestCase(directory):
            guard let testCase else {
                throw CassetteError.noTestCase(cassette: description)
            }
            return try cassettes(directory)
                .appendingPathComponent(Self.fileName(testCase.group), isDirectory: true)
                .appendingPathComponent(Self.fileName(testCase.test) + ".har")
        }
    }

    /// `text` with every character that is awkward in a file name replaced by `-`:
    /// `fetchUser(id:)` becomes `fetchUser-id`.
    @_spi(Integration)
    public static func fileName(_ text: String) -> String {
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

extension CassetteFile: ExpressibleByStringLiteral {
    /// The cassette ``named(_:in:)`` `value`, in `Cassettes/` next to the source
    /// file that opened the scope.
    public init(stringLiteral value: String) {
        self = .named(value)
    }
}

extension CassetteFile: CustomStringConvertible {
    /// The file as written: `.at(/path/users.har)`, `.named("users")` or `.perTestCase`.
    public var description: String {
        switch place {
        case let .file(url): ".at(\(url.path))"
        case let .named(name, nil): ".named(\"\(name)\")"
        case let .named(name, directory?): ".named(\"\(name)\", in: \(directory.path))"
        case .perTestCase(nil): ".perTestCase"
        case let .perTestCase(directory?): ".perTestCase(in: \(directory.path))"
        }
    }
}
