/// A point in a streamed body, counted in chunks (an event of a server-sent events
/// stream is one chunk) or in bytes: where a stream fails, stalls or ends early.
///
/// ```swift
/// .serverSentEvents(events).failing(after: .events(3), with: .networkConnectionLost)
/// .chunks(parts).stalling(after: .bytes(1_024))
/// ```
public struct StreamPoint: Sendable, Hashable {
    /// What a point counts.
    enum Unit: Sendable, Hashable {
        case chunks
        case bytes
    }

    let unit: Unit
    let count: Int

    /// After `count` chunks were delivered whole (`0`: right after the response's
    /// header).
    public static func chunks(_ count: Int) -> StreamPoint {
        StreamPoint(unit: .chunks, count: count)
    }

    /// After `count` events of a server-sent events stream were delivered: the
    /// same point as ``chunks(_:)``, since each event is written as one chunk.
    public static func events(_ count: Int) -> StreamPoint {
        chunks(count)
    }

    /// After exactly `count` bytes of the body were delivered, splitting a chunk
    /// if the point falls inside one.
    public static func bytes(_ count: Int) -> StreamPoint {
        StreamPoint(unit: .bytes, count: count)
    }
}

extension StreamPoint: CustomStringConvertible {
    /// The point as it is written in code, such as `.chunks(3)`.
    public var description: String {
        switch unit {
        case .chunks: ".chunks(\(count))"
        case .bytes: ".bytes(\(count))"
        }
    }
}
