import Foundation

/// A small client-side parser of `text/event-stream` bodies, written from the
/// HTML standard's rules, to read back what a stub sent.
enum ServerSentEventParser {
    /// One dispatched event.
    struct Event: Equatable, Sendable {
        var type = "message"
        var data = ""
        var lastEventID = ""
    }

    /// The events `text` dispatches, and the last `retry` it set (in milliseconds).
    static func parse(_ text: String) -> (events: [Event], retry: Int?) {
        var events: [Event] = []
        var retry: Int?
        var type = ""
        var data = ""
        var lastEventID = ""
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        for line in lines.dropLast() { // The text after the last line break is not a complete line.
            if line.isEmpty {
                if !data.isEmpty {
                    data.removeLast() // The trailing line feed.
                    events.append(Event(type: type.isEmpty ? "message" : type, data: data, lastEventID: lastEventID))
                }
                type = ""
                data = ""
                continue
            }
            if line.hasPrefix(":") {
                continue // A comment.
            }
            let name: Substring
            var value: Substring
            if let colon = line.firstIndex(of: ":") {
                name = line[..<colon]
                value = line[line.index(after: colon)...]
                if value.hasPrefix(" ") {
                    value = value.dropFirst()
                }
            } else {
                name = line
                value = ""
            }
            switch name {
            case "event": type = String(value)
            case "data": data += value + "\n"
            case "id" where !value.contains("\0"): lastEventID = String(value)
            case "retry": retry = Int(value) ?? retry
            default: break
            }
        }
        return (events, retry)
    }
}
