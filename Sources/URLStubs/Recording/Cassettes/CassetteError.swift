import Foundation

/// Why a cassette could not be replayed or written.
public enum CassetteError: Error, Sendable, CustomStringConvertible {
    /// Strict replay needs a cassette file, and there is none at this path.
    case missingFile(path: String)
    /// The file is not a HAR file URLStubs can read.
    case unreadable(path: String, reason: String)
    /// A redaction rule cannot be used.
    case invalidRule(rule: String, reason: String)
    /// A matching rule (``CassetteMatching``) cannot be used.
    case invalidMatching(rule: String, reason: String)
    /// A secret survived redaction; nothing was written.
    case leakedSecret(path: String, leak: String)
    /// Another open scope is recording into the same file.
    case alreadyRecording(path: String)
    /// Writing the file failed.
    case unwritable(path: String, reason: String)
    /// A redaction rule added to the standard ones removed nothing in a whole
    /// recording of this many entries; nothing was written.
    case unusedRule(path: String, rule: String, entries: Int)
    /// An environment variable URLStubs reads holds a value it does not accept.
    case invalidEnvironment(variable: String, value: String, reason: String)
    /// A cassette of one file per test case (``CassetteFile/perTestCase``) was
    /// asked for by a scope that is not a test case's (`withStubScope`, an
    /// `XCTestCase`'s options): the cassette as written.
    case noTestCase(cassette: String)
    /// A cassette given by name or per test case, with no directory, in a scope
    /// that does not know its source file (a `StubbedTestCase`'s): the cassette
    /// as written.
    case noDirectory(cassette: String)
    /// `withStubScope(_:)`, or a `StubbedTestCase`, was given options for a
    /// cassette (its mode, its redaction or its matching: the fields named, as
    /// ``StubScopeOptions`` spells them) but no cassette, so they would do nothing.
    case noCassette(fields: [String])
    /// `withStubScope(_:clock:cassette:mode:redaction:matching:seed:fileID:filePath:line:column:isolation:_:)`
    /// was given a cassette's mode, redaction or matching (the parameters named,
    /// as that function spells them) with a `cassette` URL that is `nil`, so they
    /// would do nothing.
    case nilCassette(parameters: [String])

    /// A sentence saying what went wrong and what to do.
    public var description: String {
        RecordingMessages.describe(self)
    }
}
