#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Why a response is refused, one sentence per reason.
enum ResponseMessages {
    static func unreadableFixture(_ fileURL: URL, error: any Error) -> String {
        "the fixture at \(fileURL.path) cannot be read: \(error.localizedDescription)"
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
}
