import Foundation

extension StubSourceLocation {
    /// The first line of the cassette `file`, where its stubs are located when no
    /// line of source code registered them (a `StubbedTestCase`'s options: XCTest
    /// does not say where a test is written).
    ///
    /// Its file ID is the file's folder and name (`Cassettes/users.har`), shaped as
    /// a `#fileID` is (`Module/File.swift`), which Swift Testing requires of one.
    init(cassette file: URL) {
        let folder = file.deletingLastPathComponent().lastPathComponent
        let fileID = (folder.isEmpty || folder == "/" ? "cassette" : folder) + "/" + file.lastPathComponent
        self.init(fileID: fileID, filePath: file.path, line: 1, column: 1)
    }
}
