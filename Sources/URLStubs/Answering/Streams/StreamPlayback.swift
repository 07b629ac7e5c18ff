#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A streamed answer, ready to be played for one request: the stream, and where
/// its outcome is written down.
struct StreamPlayback: Sendable {
    /// How a played stream ended.
    enum End: Sendable {
        /// The body is complete (or ended early, as planned): the response finishes.
        case finished
        /// The request fails with the error.
        case failed(any Error)
    }

    let status: Int
    let headers: [String: String]
    let stream: ResponseStream
    /// The log entry the outcome is written to, if the request is logged.
    let exchange: LoggedExchange?
    /// The scope a written stream's closure runs in.
    let route: RequestRoute

    /// Plays the stream: hands each piece to `sink` when its time comes (`sink`
    /// returns `false` once the request went away), writes the outcome in the
    /// request log, and returns how the stream ended; `nil` when it was cancelled
    /// (or its request went away) first.
    func play(into sink: @escaping @Sendable (Data) -> Bool) async -> End? {
        let emitter = StreamEmitter(stream, clock: exchange?.clock ?? .continuous(), sink: sink)
        var thrown: (any Error)?
        switch stream.source {
        case let .chunks(chunks, interval):
            for (index, chunk) in chunks.enumerated() {
                // Interrupted right after the last piece it delivers, not an interval later.
                guard !emitter.isDone else { break }
                if index > 0 {
                    switch await idle(interval) {
                    case .elapsed: break
                    case .timedOut: return finish(.failed(timeout), body: emitter.end().body)
                    case .cancelled: return nil
                    }
                }
                guard await emitter.write(chunk) else { break }
            }
        case let .writer(write):
            let scope = route.scope
            // The closure, until it returns or the stream stops (at its point, the
            // moment the write that reaches it is delivered): then it is cancelled,
            // and not waited for.
            let run: @Sendable () async -> (any Error)? = {
                await firstToEnd({
                    do {
                        try await StubScope.currentBinding.withValue(scope) {
                            try await write(StreamWriter(emitter: emitter))
                        }
                        return nil
                    } catch {
                        return error
                    }
                }, {
                    await emitter.untilStopped()
                    return nil
                }, whenCancelled: nil)
            }
            guard let exchange else {
                thrown = await run()
                break
            }
            // A closure that stops writing leaves the request idle: it times out
            // as a stall does, counted from the last piece (or the stream's start).
            switch await RequestTimeout(exchange).raceIdle(since: { emitter.lastActivity }, run) {
            case let .finished(error)?:
                thrown = error
            case .timedOut?:
                emitter.timeOut()
                return finish(.failed(timeout), body: emitter.end().body)
            case nil:
                return nil
            }
        }
        let (stop, body) = emitter.end()
        let end: End
        switch stop {
        case nil:
            guard !Task.isCancelled else { return nil }
            end = thrown.map(End.failed) ?? .finished
        case .gone:
            return nil
        case let .failed(error):
            end = .failed(error)
        case .interrupted:
            switch stream.interruption?.kind {
            case let .failure(error)?:
                end = .failed(error)
            case .end?, nil:
                end = .finished
            case .stall?:
                // Nothing more, ever: the request waits for its timeout (counted from
                // the last piece), its cancel or its scope's end.
                guard case .timedOut = await idle(.seconds(Int64.max), since: emitter.lastActivity) else { return nil }
                end = .failed(timeout)
            }
        }
        return finish(end, body: body)
    }

    /// Waits `duration` between two pieces, on the scope's clock, or until the
    /// request times out idle since `lastActivity` (by default, now).
    private func idle(_ duration: Duration, since lastActivity: Duration? = nil) async -> RequestTimeout.WaitEnd {
        guard let exchange else {
            guard duration > .zero else { return Task.isCancelled ? .cancelled : .elapsed }
            return await sleepUnlessCancelled(for: duration) ? .elapsed : .cancelled
        }
        return await RequestTimeout(exchange).waitIdle(duration, since: lastActivity)
    }

    /// The error of a stream that timed out idle.
    private var timeout: any Error {
        exchange.map { RequestTimeout($0).error } ?? URLError(.timedOut)
    }

    /// Writes down how the stream ended, with the body it delivered, and returns it.
    private func finish(_ end: End, body: Data) -> End {
        if let exchange {
            switch end {
            case .finished:
                StubRegistry.shared.record(.response(status: status, headers: headers, body: body), of: exchange)
            case let .failed(error):
                StubRegistry.shared.record(.failure(error), of: exchange)
            }
        }
        return end
    }
}
