/// Reads a connection's bytes through a buffer, so that a request's head, its
/// chunk-size lines and its body can be taken piece by piece.
struct ConnectionReader {
    /// The connected socket read from.
    let descriptor: Int32

    /// Bytes received but not taken yet.
    private var buffer: [UInt8] = []

    /// A reader of `descriptor` with nothing buffered yet.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the bytes up to and including the first `delimiter`, receiving more
    /// as needed; `nil` when the stream ends first or `limit` bytes come without it.
    mutating func take(through delimiter: [UInt8], limit: Int) -> [UInt8]? {
        var searchFrom = 0
        while true {
            if let end = Self.end(of: delimiter, in: buffer, from: searchFrom) {
                return take(count: end)
            }
            guard buffer.count < limit else { return nil }
            searchFrom = max(0, buffer.count - delimiter.count + 1)
            guard receiveMore() else { return nil }
        }
    }

    /// Takes exactly `count` bytes, receiving more as needed; `nil` when the
    /// stream ends first.
    mutating func take(count: Int) -> [UInt8]? {
        while buffer.count < count {
            guard receiveMore() else { return nil }
        }
        let taken = Array(buffer[..<count])
        buffer.removeFirst(count)
        return taken
    }

    /// Appends what the socket has next to the buffer; false when it has no more.
    private mutating func receiveMore() -> Bool {
        guard let bytes = Socket.receive(from: descriptor, capacity: 64 * 1024) else { return false }
        buffer += bytes
        return true
    }

    /// The index just past the first `delimiter` in `bytes` at or after `start`.
    private static func end(of delimiter: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        let last = bytes.count - delimiter.count
        guard start <= last else { return nil }
        return (start...last).first { bytes[$0..<($0 + delimiter.count)].elementsEqual(delimiter) }
            .map { $0 + delimiter.count }
    }
}
