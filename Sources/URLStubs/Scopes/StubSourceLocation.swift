/// The place in source code where a scope was opened or a stub was registered.
///
/// Failure reports point here, so that a broken expectation or an unmatched request
/// leads straight to the line that set it up.
public struct StubSourceLocation: Sendable, Hashable {
    /// The file ID of the source file, as `#fileID` spells it (`Module/File.swift`);
    /// for a cassette's stubs under XCTest, the cassette's folder and name
    /// (`Cassettes/users.har`).
    public var fileID: String
    /// The full path of the source file, as `#filePath` spells it.
    public var filePath: String
    /// The line in the source file, counting from 1.
    public var line: Int
    /// The column in the source file, counting from 1.
    public var column: Int

    /// Creates a source location from its parts.
    public init(fileID: String, filePath: String, line: Int, column: Int) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }
}

extension StubSourceLocation: CustomStringConvertible {
    /// The location written as `Module/File.swift:12`.
    public var description: String {
        var text = ""
        write(into: &text)
        return text
    }

    /// Appends the location, as ``description`` writes it, to `text`.
    func write(into text: inout String) {
        text += fileID
        text += ":"
        text += String(line)
    }
}
