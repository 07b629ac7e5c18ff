#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Why a response is refused, one sentence per reason.
enum ResponseMessages {
    static func unreadableFixture(_ fileURL: URL, error: any Error) -> String {
        "the fixture at \(fileURL.path) cannot be read: \(error.localizedDescription)"
    }

    static func nonFileFixture(_ url: URL) -> String {
        "the fixture at \(url.absoluteString) is not a file: fixtures are read only from file URLs, so that no stub reaches the network (it was not loaded); use passThrough(_:) or a cassette for real traffic"
    }

    static func missingFixture(named name: String, in bundle: Bundle) -> String {
        "no fixture named \"\(name)\" in bundle \(bundle.bundlePath)"
    }

    static func invalidStatus(_ status: Int) -> String {
        "status \(status) is not a final HTTP status (use 200...599)"
    }

    static let authenticationChallenge = "a 401 response with a WWW-Authenticate header cannot be stubbed: Foundation on Linux starts an authentication challenge for it and the request never completes; drop the WWW-Authenticate header (the 401 and its body are still delivered)"

    static func refusedInSequence(_ reason: String) -> String {
        "a response in the sequence is refused: \(reason)"
    }

    static func unencodableJSON(_ error: any Error) -> String {
        "the JSON body could not be encoded: \(error)"
    }

    static func invalidJSONText(_ json: String, error: any Error) -> String {
        "the JSON text is not valid JSON (\(error.localizedDescription)): \(json.prefix(80)); .json(_:) with a String sends the text as it is, so to answer with a JSON string value write .json(#\"\"text\"\"#)"
    }

    static let emptySequence = "a response sequence needs at least one response"

    static func unframableEvent(at index: Int, problem: String) -> String {
        "server-sent event \(index + 1) cannot be written: \(problem)"
    }

    static func eventFieldWithLineBreak(_ field: String, value: String) -> String {
        "its \(field) \(value.debugDescription) contains a line break, which would end the field early"
    }

    static func eventIDNotOneLine(_ id: String) -> String {
        "its id \(id.debugDescription) contains a line break or a NUL character, which clients reject"
    }

    static func negativeRetry(_ retry: Duration) -> String {
        "its retry interval \(retry) is negative"
    }

    static let emptyEvent = "it has no field at all (give it data, an event type, an id, a retry interval or a comment)"

    static func invalidStreamModifier(_ modifier: String, problem: String) -> String {
        ".\(modifier) cannot be applied: \(problem)"
    }

    static func invalidThrottle(_ bytesPerSecond: Int) -> String {
        "a rate of \(bytesPerSecond) bytes per second would never deliver the body (use 1 or more)"
    }

    static func negativeStreamPoint(_ point: StreamPoint) -> String {
        "\(point) counts from 0"
    }

    static let secondInterruption = "the stream already fails, stalls or ends early at another point; a stream is interrupted once"

    static let noBodyToStream = "a failure has no body to stream"

    static func interruptionPastEnd(_ point: StreamPoint, available: Int, unit: StreamPoint.Unit) -> String {
        let noun = unit == .chunks ? (available == 1 ? "chunk" : "chunks") : (available == 1 ? "byte" : "bytes")
        return "the body has only \(available) \(noun), so \(point) is never reached"
    }

    static func notARedirectStatus(_ status: Int) -> String {
        "status \(status) is not a redirect a client follows (use 301, 302, 303, 307 or 308)"
    }

    static func invalidLocation(_ location: String) -> String {
        "the redirect location \(location.debugDescription) is not a URL or a relative reference"
    }
}
