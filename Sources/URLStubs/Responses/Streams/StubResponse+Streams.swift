#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Responses whose body arrives in pieces over time.
extension StubResponse {
    /// Answers with a body sent in `chunks`: the first right after the response's
    /// header, each next one `interval` later.
    ///
    /// `Transfer-Encoding: chunked` is added unless `headers` sets `Content-Length`
    /// or `Transfer-Encoding`. A client that reads the body as it arrives (a
    /// `bytes(for:)` loop, a data delegate) sees each chunk on its own; where
    /// Foundation hands a body over only whole (`data(for:)` and completion
    /// handlers on Linux) the client gets the chunks joined when the last one
    /// arrives. Empty chunks are skipped, as an HTTP server cannot send them.
    public static func chunks(
        _ chunks: [Data],
        every interval: Duration = .zero,
        status: Int = 200,
        headers: [String: String] = [:]
    ) -> StubResponse {
        streamed(ResponseStream(source: .chunks(chunks, every: max(interval, .zero))), status: status, headers: headers, contentType: nil)
    }

    /// Answers with a `text/event-stream` body carrying `events`, each as one
    /// chunk: the first right after the response's header, each next one
    /// `interval` later.
    ///
    /// `Content-Type: text/event-stream`, `Cache-Control: no-cache` and
    /// `Transfer-Encoding: chunked` are added unless `headers` sets them. An event
    /// that cannot be framed (a line break in its type or id, a negative `retry`,
    /// no field at all) is refused, naming the event.
    public static func serverSentEvents(
        _ events: [StubServerSentEvent],
        every interval: Duration = .zero,
        status: Int = 200,
        headers: [String: String] = [:]
    ) -> StubResponse {
        for (index, event) in events.enumerated() {
            if let problem = event.problem {
                return StubResponse(.refused(ResponseMessages.unframableEvent(at: index, problem: problem)))
            }
        }
        var fields = headers
        if !fields.containsField("Cache-Control") {
            fields["Cache-Control"] = "no-cache"
        }
        let stream = ResponseStream(source: .chunks(events.map(\.framed), every: max(interval, .zero)))
        return streamed(stream, status: status, headers: fields, contentType: "text/event-stream")
    }

    /// Answers with a body that `write` writes chunk by chunk, as it runs.
    ///
    /// The closure runs on a task of its own once the response's header is
    /// delivered, in the request's scope, and may sleep between writes. The
    /// response finishes when it returns; an error it throws fails the request
    /// with that error, after the chunks written before it. When the request is
    /// cancelled or its scope ends, its task is cancelled and each write throws.
    /// A closure that writes nothing for the request's `timeoutInterval` (on the
    /// scope's clock, counted from its last write, or from the header before the
    /// first) leaves the request idle: it fails with `URLError.timedOut`, as a
    /// stall does, and the closure's task is cancelled.
    ///
    /// ```swift
    /// .stream(headers: ["Content-Type": "text/event-stream"]) { writer in
    ///     for token in ["Hel", "lo"] {
    ///         try await writer.write(.message(token))
    ///         try await Task.sleep(for: .milliseconds(20))
    ///     }
    /// }
    /// ```
    public static func stream(
        status: Int = 200,
        headers: [String: String] = [:],
        _ write: @escaping @Sendable (StreamWriter) async throws -> Void
    ) -> StubResponse {
        streamed(ResponseStream(source: .writer(write)), status: status, headers: headers, contentType: nil)
    }

    /// The same response, its body delivered no faster than `bytesPerSecond`, as
    /// over a slow connection.
    ///
    /// The body arrives in slices of about a twentieth of a second's worth of
    /// bytes. A rate below 1 is refused.
    public func throttled(bytesPerSecond: Int) -> StubResponse {
        withStream("throttled(bytesPerSecond: \(bytesPerSecond))") { stream in
            guard bytesPerSecond > 0 else { return ResponseMessages.invalidThrottle(bytesPerSecond) }
            stream.bytesPerSecond = bytesPerSecond
            return nil
        }
    }

    /// The same response, failing with a `URLError` of `code` once `point` of its
    /// body was delivered, as a connection that drops mid-stream.
    public func failing(after point: StreamPoint, with code: URLError.Code) -> StubResponse {
        failing(after: point, with: URLError(code))
    }

    /// The same response, failing with `error` once `point` of its body was
    /// delivered.
    public func failing(after point: StreamPoint, with error: any Error) -> StubResponse {
        withStream("failing(after: \(point), with: …)") { stream in
            stream.interrupt(at: point, with: .failure(error))
        }
    }

    /// The same response, delivering nothing more once `point` of its body was
    /// delivered and never finishing: for timeout and reconnection logic.
    ///
    /// The request then fails with `URLError.timedOut` its `timeoutInterval` after
    /// the last piece (on the scope's clock), unless it is cancelled or its scope
    /// ends first; a request with no timeout (zero or infinite) waits for those.
    public func stalling(after point: StreamPoint) -> StubResponse {
        withStream("stalling(after: \(point))") { stream in
            stream.interrupt(at: point, with: .stall)
        }
    }

    /// The same response, finishing normally once `point` of its body was
    /// delivered, without the rest: a stream that ends before its final event.
    public func endingEarly(after point: StreamPoint) -> StubResponse {
        withStream("endingEarly(after: \(point))") { stream in
            stream.interrupt(at: point, with: .end)
        }
    }

    /// A streamed response with the header fields a server sends with one.
    static func streamed(_ stream: ResponseStream, status: Int, headers: [String: String], contentType: String?) -> StubResponse {
        if let problem = problem(status: status, headers: headers) {
            return StubResponse(.refused(problem))
        }
        var fields = headers
        if let contentType, !fields.containsField("Content-Type") {
            fields["Content-Type"] = contentType
        }
        if !fields.containsField("Content-Length"), !fields.containsField("Transfer-Encoding") {
            fields["Transfer-Encoding"] = "chunked"
        }
        return StubResponse(.stream(status: status, headers: fields, body: stream))
    }

    /// The response with its stream changed by `change`, which returns why the
    /// change cannot be made (or `nil`); a whole body becomes a stream of one
    /// chunk, and each response of a sequence is changed.
    private func withStream(_ modifier: String, _ change: (inout ResponseStream) -> String?) -> StubResponse {
        var copy = self
        switch kind {
        case let .http(status, headers, body):
            var stream = ResponseStream(source: .chunks(body.isEmpty ? [] : [body], every: .zero))
            if let problem = change(&stream) ?? stream.unreachableInterruption {
                return StubResponse(.refused(ResponseMessages.invalidStreamModifier(modifier, problem: problem)))
            }
            copy.kind = .stream(status: status, headers: headers, body: stream)
        case .stream(let status, let headers, var stream):
            if let problem = change(&stream) ?? stream.unreachableInterruption {
                return StubResponse(.refused(ResponseMessages.invalidStreamModifier(modifier, problem: problem)))
            }
            copy.kind = .stream(status: status, headers: headers, body: stream)
        case let .sequence(responses):
            copy.kind = .sequence(responses.map { $0.withStream(modifier, change) })
        case .failure:
            return StubResponse(.refused(ResponseMessages.invalidStreamModifier(modifier, problem: ResponseMessages.noBodyToStream)))
        case .refused:
            break
        }
        return copy
    }
}

extension ResponseStream {
    /// Sets where the stream is interrupted; returns why it cannot be, or `nil`.
    mutating func interrupt(at point: StreamPoint, with kind: Interruption) -> String? {
        guard point.count >= 0 else { return ResponseMessages.negativeStreamPoint(point) }
        guard interruption == nil else { return ResponseMessages.secondInterruption }
        interruption = (point, kind)
        return nil
    }
}
