import Foundation

/// A body delivered in pieces over time, and where its delivery is interrupted.
struct ResponseStream: Sendable {
    /// Where the pieces come from.
    enum Source: Sendable {
        /// These chunks, the first at once and each next one `interval` later.
        case chunks([Data], every: Duration)
        /// The chunks a closure writes while it runs.
        case writer(@Sendable (StreamWriter) async throws -> Void)
    }

    /// What happens at the point where a stream is interrupted.
    enum Interruption: Sendable {
        /// The request fails with the error.
        case failure(any Error)
        /// Nothing more arrives, and the response never finishes.
        case stall
        /// The response finishes there, as if the body were complete.
        case end
    }

    /// Where the pieces come from.
    var source: Source
    /// The most bytes delivered per second, or `nil` for no limit.
    var bytesPerSecond: Int?
    /// Where the stream is interrupted, and how; `nil` for a stream that runs to
    /// its end.
    var interruption: (point: StreamPoint, kind: Interruption)?

    /// The whole body of a stream of known chunks, or `nil` for a written one.
    var knownBody: Data? {
        guard case let .chunks(chunks, _) = source else { return nil }
        return chunks.reduce(into: Data()) { $0.append($1) }
    }

    /// Why the interruption can never happen (its point lies past the end of a body
    /// whose chunks are known), or `nil`.
    var unreachableInterruption: String? {
        guard let (point, _) = interruption, case let .chunks(chunks, _) = source else { return nil }
        // An empty chunk delivers nothing, and counts for no point.
        let available = point.unit == .chunks ? chunks.reduce(0) { $1.isEmpty ? $0 : $0 + 1 } : chunks.reduce(0) { $0 + $1.count }
        guard point.count > available else { return nil }
        return ResponseMessages.interruptionPastEnd(point, available: available, unit: point.unit)
    }
}
