#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One accepted connection's socket, read through a buffer with deadlines and
/// written whole; owned by the connection's thread, which alone closes it.
struct ConnectionSocket {
    /// Why reading stopped.
    enum ReadEnd: Error {
        /// The client closed its side, or the server shut the socket down.
        case closed
        /// The deadline passed first.
        case timedOut
        /// More bytes than allowed came without the delimiter looked for.
        case tooLong
    }

    let descriptor: Int32
    /// Received bytes; those before `start` were taken already.
    private var buffer: [UInt8] = []
    private var start = 0
    /// The last deadline found passed, and how many more bytes may still be read
    /// for it: those that were queued when it was first found passed.
    private var late: (deadline: ContinuousClock.Instant, bytes: Int)?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The bytes received and not taken yet.
    var unread: ArraySlice<UInt8> {
        buffer[start...]
    }

    /// Whether bytes were received and not taken yet (a pipelined request).
    var hasBuffered: Bool {
        start < buffer.count
    }

    /// Whether the bytes received and not taken yet start a request: more than a
    /// CR alone, which may be the first half of an empty line.
    var hasStartOfRequest: Bool {
        hasBuffered && !(buffer.count - start == 1 && buffer[start] == 13)
    }

    /// Drops leading empty lines (`CRLF`) between requests, as RFC 9112 asks.
    mutating func skipEmptyLines() {
        while buffer.count - start >= 2, buffer[start] == 13, buffer[start + 1] == 10 {
            start += 2
        }
    }

    /// Receives until the buffered bytes hold a complete request head (up to the
    /// empty line), and takes it, without its final `CRLF CRLF`.
    ///
    /// The first byte must come before `idle`, the whole head before the deadline
    /// the head's first byte sets (`firstByte` gives it). A line ended by `LF`
    /// alone is refused at once through `bareLineFeed`, rather than waited on.
    mutating func head(limit: Int, idle: ContinuousClock.Instant, firstByte: (ContinuousClock.Instant) -> ContinuousClock.Instant) throws(ReadEnd) -> (bytes: ArraySlice<UInt8>, bareLineFeed: Bool) {
        var deadline = idle
        var isWaitingForFirstByte = true
        // How many bytes past `start` were scanned already: an offset from `start`
        // stays right when receiving compacts the buffer.
        var scanned = 0
        while true {
            if isWaitingForFirstByte {
                skipEmptyLines()
                scanned = 0 // What was scanned before may have been skipped.
                // A CR alone may be the first half of an empty line whose LF has
                // not come yet: it is not the head's first byte.
                if hasStartOfRequest {
                    isWaitingForFirstByte = false
                    deadline = firstByte(.now)
                }
            }
            var index = start + scanned
            while index < buffer.count {
                if buffer[index] == 10 {
                    if index == start || buffer[index - 1] != 13 {
                        return (buffer[start...index], true)
                    }
                    if index - start >= 3, buffer[index - 2] == 10, buffer[index - 3] == 13 {
                        guard index + 1 - start <= limit else { throw .tooLong }
                        let head = buffer[start..<(index - 3)]
                        start = index + 1
                        return (head, false)
                    }
                }
                index += 1
            }
            scanned = buffer.count - start
            guard scanned < limit else { throw .tooLong }
            try receive(until: deadline)
        }
    }

    /// Takes one line (without its `CRLF`) of at most `limit` bytes.
    ///
    /// A line ended by `LF` alone is refused at once through `bareLineFeed`, as
    /// by `head`: its bytes come back with the `LF`, not taken.
    mutating func line(limit: Int, until deadline: ContinuousClock.Instant) throws(ReadEnd) -> (bytes: ArraySlice<UInt8>, bareLineFeed: Bool) {
        var scanned = 0
        while true {
            var index = start + scanned
            while index < buffer.count {
                if buffer[index] == 10 {
                    guard index - start <= limit else { throw .tooLong }
                    guard index > start, buffer[index - 1] == 13 else {
                        return (buffer[start...index], true)
                    }
                    let line = buffer[start..<(index - 1)]
                    start = index + 1
                    return (line, false)
                }
                index += 1
            }
            scanned = buffer.count - start
            guard scanned <= limit else { throw .tooLong }
            try receive(until: deadline)
        }
    }

    /// Takes exactly `count` bytes.
    mutating func bytes(_ count: Int, until deadline: ContinuousClock.Instant) throws(ReadEnd) -> ArraySlice<UInt8> {
        while buffer.count - start < count {
            try receive(until: deadline)
        }
        let taken = buffer[start..<(start + count)]
        start += count
        return taken
    }

    /// Forgets the bytes taken, when they are most of the buffer.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 64 * 1_024 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// Waits for bytes until `deadline` and appends them.
    ///
    /// Past the deadline, the bytes that came in time are still read: those
    /// queued when this thread first found the deadline passed (a loaded machine
    /// may not run it for a while), and no more. A client is never blamed for the
    /// server's delay, and never given time the deadline did not give: a client
    /// that keeps sending (empty lines before a request, say) is still cut off.
    private mutating func receive(until deadline: ContinuousClock.Instant) throws(ReadEnd) {
        compact()
        var room = 16 * 1_024
        if try !wait(for: Int16(POLLIN), until: deadline) {
            if late?.deadline != deadline {
                late = (deadline, SocketPlatform.queuedBytes(on: descriptor))
            }
            guard let allowed = late?.bytes, allowed > 0 else { throw .timedOut }
            room = min(room, allowed)
        }
        // Received into room on the stack, then copied in one block. Not through a
        // generic sequence (such as `repeatElement`): unspecialized, that path
        // makes every connection thread wait on the Swift runtime's one-time
        // setup of the same generic metadata at once, which under the thread
        // sanitizer on Linux can lose its wake-up and hang them all.
        let count = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16 * 1_024) { space in
            let count = recv(descriptor, space.baseAddress!, room, 0)
            if count > 0 {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: space[..<count]))
            }
            return count
        }
        if count > 0, late?.deadline == deadline {
            late?.bytes -= count
        }
        if count < 0, SocketPlatform.lastError == EINTR || SocketPlatform.lastError == EAGAIN {
            return
        }
        guard count > 0 else { throw .closed }
    }

    /// Waits until `events` happen on the socket or `deadline` passes; `false` on the deadline.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) throws(ReadEnd) -> Bool {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            // At most a minute per poll, capped before it is counted in
            // milliseconds: a limit of `.seconds(Int64.max)` (no limit, in effect)
            // would overflow the count.
            let step = min(left, .seconds(60))
            let milliseconds = Int32(step.components.seconds * 1_000 + step.components.attoseconds / 1_000_000_000_000_000 + 1)
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 {
                return true
            }
            if ready < 0, SocketPlatform.lastError != EINTR {
                throw .closed
            }
        }
    }

    /// Whether the client is gone: its side is closed (or reset) and nothing it
    /// sent is left unread. Looks without waiting.
    ///
    /// A half-close (a client that shut down only its sending side, and still
    /// reads) looks the same as a close from here until a write fails: it is taken
    /// as gone, as most servers take it, rather than keep a late answer running
    /// for a client that may never read it.
    func isClientGone() -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if count < 0 {
            return SocketPlatform.lastError != EAGAIN && SocketPlatform.lastError != EINTR
        }
        return count == 0
    }

    /// Sends every byte; `false` when the client is gone or the send timed out.
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer -> Bool in
            var sent = 0
            while sent < buffer.count {
                let count = Glue.send(descriptor, buffer.baseAddress! + sent, buffer.count - sent, SocketPlatform.sendFlags)
                if count < 0, SocketPlatform.lastError == EINTR {
                    continue
                }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }
    }

    /// Ends the connection after a refusal without losing the refusal: stops
    /// sending, then reads and drops what the client still sends (briefly), so
    /// that closing with unread bytes does not reset the connection before the
    /// client has read the answer.
    mutating func closeGently() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + .milliseconds(300)
        var dropped = 0
        while dropped < 1_024 * 1_024 {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            do {
                try receive(until: deadline)
            } catch {
                return
            }
            dropped += buffer.count
        }
    }

    /// Makes closing the socket reset the connection rather than end it well: a
    /// body that runs to the connection's close (HTTP/1.0) and is cut short must
    /// not look whole to the client.
    func resetOnClose() {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Gives writes at most `timeout` to make progress, so that a client that
    /// stops reading cannot hold a connection's thread forever.
    func limitSends(to timeout: Duration) {
        // A day at most: the socket refuses a time past what its clock can hold.
        let timeout = min(timeout, .seconds(86_400))
        var time = timeval(tv_sec: .init(timeout.components.seconds), tv_usec: .init(timeout.components.attoseconds / 1_000_000_000_000))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }
}

extension ConnectionSocket {
    /// Whether the request line among the unread bytes, with its line end, is
    /// longer than `limit` (or has not ended when `limit` bytes came): a too-long
    /// head is then too long a request line, not too many header bytes, however
    /// the line's bytes were split between reads.
    func isRequestLineLonger(than limit: Int) -> Bool {
        guard let end = unread.firstIndex(of: 10) else {
            // No line end yet, and `limit` bytes came: with its end, it is longer.
            return unread.count >= limit
        }
        return end + 1 - start > limit
    }
}
