import Foundation

/// Writes the body of a streamed response chunk by chunk, from the closure given
/// to ``StubResponse/stream(status:headers:_:)``.
///
/// Each write is delivered to the client as one chunk (after any throttling wait)
/// before it returns. When the stream can take nothing more, because the request
/// was cancelled, its scope ended, or the stream reached the point where it fails,
/// stalls or ends, every write throws `CancellationError`, so a loop of writes
/// simply ends. The stream acts on its point as the write that reaches it is
/// delivered: that write returns, and the closure's task is cancelled (the
/// request does not wait for a closure that ignores it).
public struct StreamWriter: Sendable {
    let emitter: StreamEmitter

    /// Writes `data` as one chunk; an empty `data` writes nothing.
    public func write(_ data: Data) async throws {
        guard await emitter.write(data) else { throw CancellationError() }
    }

    /// Writes `text`, encoded as UTF-8, as one chunk.
    public func write(_ text: String) async throws {
        try await write(Data(text.utf8))
    }

    /// Writes `event`, framed for a `text/event-stream` body, as one chunk.
    ///
    /// An event that cannot be framed (a line break in its type or id, a negative
    /// `retry`, no field at all) fails the request with an error that says why.
    public func write(_ event: StubServerSentEvent) async throws {
        if let problem = event.problem {
            emitter.fail(with: problem)
            throw CancellationError()
        }
        try await write(event.framed)
    }
}
