import Foundation

/// The resident set size of this process (the memory it actually occupies).
enum ResidentMemory {
    /// The resident set size in bytes, or `nil` where it cannot be read.
    ///
    /// On Linux it is `VmRSS` of `/proc/self/status`. Elsewhere there is no reading
    /// without platform APIs this target does not use, so the memory measurement
    /// reports that it is unavailable.
    static func bytes() -> Int? {
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return nil
        }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            // "VmRSS:     12345 kB"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
            return kilobytes * 1024
        }
        return nil
        #else
        return nil
        #endif
    }
}
