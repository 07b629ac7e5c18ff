import Foundation

/// One event of a `text/event-stream` body, as a server-sent events endpoint
/// writes it.
///
/// Answer with a list of them using
/// ``StubResponse/serverSentEvents(_:every:status:headers:)``, or write them one
/// at a time from ``StubResponse/stream(status:headers:_:)``. Each event is written
/// as its own chunk, framed as the HTML standard defines: a comment line per line
/// of ``comment``, then `event:`, `id:`, `retry:`, a `data:` line per line of
/// ``data``, and a blank line.
public struct StubServerSentEvent: Sendable, Hashable {
    /// The event's payload; each of its lines becomes one `data:` line, so a
    /// client joins them back with line feeds.
    public var data: String?
    /// The event's type (`event:`), or `nil` for the default type, `message`.
    public var event: String?
    /// The event's id (`id:`), which a client sends back as `Last-Event-ID` when
    /// it reconnects.
    public var id: String?
    /// How long a client should wait before reconnecting (`retry:`, written in
    /// whole milliseconds, rounded down; a duration longer than `Int64.max`
    /// milliseconds, such as `.seconds(Int64.max)`, is written as that many).
    public var retry: Duration?
    /// A comment written before the event's fields (`: text`), which clients
    /// ignore; servers send them to keep a connection open.
    public var comment: String?

    /// An event with the fields given; a field left `nil` is not written.
    public init(data: String?, event: String? = nil, id: String? = nil, retry: Duration? = nil, comment: String? = nil) {
        self.data = data
        self.event = event
        self.id = id
        self.retry = retry
        self.comment = comment
    }

    /// An event of type `message` carrying `data`.
    public static func message(_ data: String, id: String? = nil) -> StubServerSentEvent {
        StubServerSentEvent(data: data, id: id)
    }

    /// A comment alone (`: text`), as servers send to keep a connection alive;
    /// clients dispatch no event for it.
    public static func comment(_ text: String) -> StubServerSentEvent {
        StubServerSentEvent(data: nil, comment: text)
    }
}

extension StubServerSentEvent {
    /// The event framed as it travels in a `text/event-stream` body, ending with
    /// the blank line that dispatches it.
    var framed: Data {
        var text = ""
        if let comment {
            for line in Self.lines(of: comment) {
                text += line.isEmpty ? ":\n" : ": \(line)\n"
            }
        }
        if let event {
            text += "event: \(event)\n"
        }
        if let id {
            text += "id: \(id)\n"
        }
        if let retry {
            text += "retry: \(Self.milliseconds(of: retry))\n"
        }
        if let data {
            for line in Self.lines(of: data) {
                text += "data: \(line)\n"
            }
        }
        text += "\n"
        return Data(text.utf8)
    }

    /// Why the event cannot be written as one event, or `nil` when it can.
    var problem: String? {
        if let event, event.contains(where: Self.isLineBreak) {
            return ResponseMessages.eventFieldWithLineBreak("event", value: event)
        }
        if let id, id.contains(where: { Self.isLineBreak($0) || $0 == "\0" }) {
            return ResponseMessages.eventIDNotOneLine(id)
        }
        if let retry, retry < .zero {
            return ResponseMessages.negativeRetry(retry)
        }
        if data == nil, event == nil, id == nil, retry == nil, comment == nil {
            return ResponseMessages.emptyEvent
        }
        return nil
    }

    /// The lines of `text`, split at LF, CR LF or CR as the event stream format does.
    private static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: isLineBreak)
    }

    /// Whether `character` ends a line of an event stream: LF, CR, or CR LF (which
    /// Swift reads as one character).
    private static func isLineBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r" || character == "\r\n"
    }

    /// `duration` in whole milliseconds, rounded down; at most `Int64.max` (about
    /// 292 million years), which a longer duration is written as.
    private static func milliseconds(of duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        guard !overflow else { return seconds < 0 ? Int64.min : Int64.max }
        let (total, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return sumOverflow ? Int64.max : total
    }
}
