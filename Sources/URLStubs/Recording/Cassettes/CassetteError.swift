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

    /// A sentence saying what went wrong and what to do.
    public var description: String {
        RecordingMessages.describe(self)
    }
}
