import Foundation

/// Progress messages on standard error, so that standard output holds only the report.
enum Progress {
    /// Writes `message` and a newline to standard error.
    static func log(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
