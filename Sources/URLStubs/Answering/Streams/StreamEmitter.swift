import Foundation

/// Hands the pieces of one playing stream to whoever delivers them: paced by the
/// stream's throttle, cut at its interruption point, and counted.
///
/// Writes may come from the stream's own task (a list of chunks) or from the
/// closure of a written stream; they are meant to come one at a time.
final class StreamEmitter: Sendable {
    /// Why a stream takes nothing more.
    enum Stop: Sendable {
        /// It reached its interruption point.
        case interrupted
        /// Its request went away: cancelled, or failed by its scope's end.
        case gone
        /// A written event could not be framed.
        case failed(any Error)
    }

    private struct Progress {
        /// Chunks delivered whole.
        var chunks = 0
        /// Bytes delivered.
        var bytes = 0
        /// The body delivered so far.
        var body = Data()
        /// Set once the stream takes nothing more.
        var stop: Stop?
        /// When the last piece (or the stream's start) was, on the scope's clock.
        var lastActivity: Duration
        /// Those waiting for the stream to stop (see ``untilStopped()``).
        var stopWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiterID = 0
    }

    private let progress: Locked<Progress>
    private let stream: ResponseStream
    /// The clock throttling waits on.
    private let clock: ScopeClock
    /// Delivers one piece; returns `false` when the request went away.
    private let sink: @Sendable (Data) -> Bool

    init(_ stream: ResponseStream, clock: ScopeClock, sink: @escaping @Sendable (Data) -> Bool) {
        self.stream = stream
        self.clock = clock
        self.sink = sink
        progress = Locked(Progress(lastActivity: clock.elapsed()))
    }

    /// When the last piece was delivered, or the stream started when none was yet,
    /// on the scope's clock.
    var lastActivity: Duration {
        progress.withLock { $0.lastActivity }
    }

    /// Delivers `piece` as one chunk, in throttled slices, up to the interruption
    /// point; returns whether it was delivered whole (a piece that reaches the
    /// point exactly was; the stream then takes nothing more, and ``isDone``).
    func write(_ piece: Data) async -> Bool {
        guard !piece.isEmpty else { return progress.withLock { $0.stop == nil } }
        let allowed = progress.withLock { progress -> (Data, isCut: Bool)? in
            guard progress.stop == nil else { return nil }
            guard let (point, _) = stream.interruption else { return (piece, false) }
            switch point.unit {
            case .chunks where progress.chunks >= point.count, .bytes where progress.bytes >= point.count:
                progress.stop = .interrupted
                return nil
            case .bytes where piece.count > point.count - progress.bytes:
                return (piece.prefix(point.count - progress.bytes), true)
            case .chunks, .bytes:
                return (piece, false)
            }
        }
        guard let (data, isCut) = allowed else {
            wakeStopWaiters()
            return false
        }
        for slice in slices(of: data) {
            guard await wait(for: slice), sink(slice) else {
                stop(.gone)
                return false
            }
            let now = clock.elapsed()
            progress.withLock { progress in
                progress.bytes += slice.count
                progress.body.append(slice)
                progress.lastActivity = now
            }
        }
        let (delivered, waiters) = progress.withLock { progress -> (Bool, [CheckedContinuation<Void, Never>]) in
            guard progress.stop == nil else { return (false, []) }
            if !isCut {
                progress.chunks += 1
            }
            // At the point now: stopped at once, not when the next piece comes or
            // a written stream's closure returns (see ``untilStopped()``).
            guard isCut || Self.isAtPoint(progress, of: stream) else { return (true, []) }
            progress.stop = .interrupted
            return (!isCut, Self.takeStopWaiters(&progress))
        }
        for waiter in waiters {
            waiter.resume()
        }
        return delivered
    }

    /// Whether `progress` reached `stream`'s interruption point.
    private static func isAtPoint(_ progress: Progress, of stream: ResponseStream) -> Bool {
        guard let (point, _) = stream.interruption else { return false }
        return (point.unit == .chunks ? progress.chunks : progress.bytes) >= point.count
    }

    /// Returns once the stream takes nothing more (it reached its interruption
    /// point, its request went away, or a written event failed), or the calling
    /// task is cancelled.
    func untilStopped() async {
        let id = progress.withLock { progress in
            defer { progress.nextWaiterID += 1 }
            return progress.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = progress.withLock { progress -> Bool in
                    // A point of 0 is reached before anything is written.
                    if progress.stop != nil || Self.isAtPoint(progress, of: stream) || Task.isCancelled { return true }
                    progress.stopWaiters[id] = continuation
                    return false
                }
                if now {
                    continuation.resume()
                }
            }
        } onCancel: {
            progress.withLock { $0.stopWaiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Empties the waiters of `progress`, for resuming outside the lock.
    private static func takeStopWaiters(_ progress: inout Progress) -> [CheckedContinuation<Void, Never>] {
        defer { progress.stopWaiters = [:] }
        return Array(progress.stopWaiters.values)
    }

    /// Whether the stream takes nothing more: it reached its interruption point
    /// (the next piece would cross it) or it stopped.
    var isDone: Bool {
        progress.withLock { progress in
            progress.stop != nil || Self.isAtPoint(progress, of: stream)
        }
    }

    /// Fails the stream because a written event could not be framed.
    func fail(with problem: String) {
        stop(.failed(StubFailure.error(FailureMessages.unframableWrittenEvent(problem), url: nil)))
    }

    /// Why the stream stopped, once its source has nothing more to write: the
    /// interruption point counts as reached when the body ends exactly there.
    func end() -> (stop: Stop?, body: Data) {
        defer { wakeStopWaiters() }
        return progress.withLock { progress in
            if progress.stop == nil, Self.isAtPoint(progress, of: stream) {
                progress.stop = .interrupted
            }
            return (progress.stop, progress.body)
        }
    }

    /// Resumes those waiting for the stream to stop, once it has.
    private func wakeStopWaiters() {
        let waiters = progress.withLock { progress in
            progress.stop == nil ? [] : Self.takeStopWaiters(&progress)
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// Takes nothing more because the request timed out idle.
    func timeOut() {
        stop(.gone)
    }

    private func stop(_ stop: Stop) {
        let waiters = progress.withLock { progress -> [CheckedContinuation<Void, Never>] in
            guard progress.stop == nil else { return [] }
            progress.stop = stop
            return Self.takeStopWaiters(&progress)
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// `data` cut into the slices a throttled stream delivers (about a twentieth of
    /// a second's worth each), or whole.
    private func slices(of data: Data) -> [Data] {
        guard let rate = stream.bytesPerSecond else { return [data] }
        let size = max(1, rate / 20)
        return stride(from: data.startIndex, to: data.endIndex, by: size).map { start in
            data[start..<min(start + size, data.endIndex)]
        }
    }

    /// Waits the time `slice` takes at the stream's rate; `false` when cancelled.
    private func wait(for slice: Data) async -> Bool {
        guard let rate = stream.bytesPerSecond else { return !Task.isCancelled }
        let nanoseconds = Int64(slice.count) * 1_000_000_000 / Int64(rate)
        return await clock.sleep(.nanoseconds(nanoseconds))
    }
}
