#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension StubResponse {
    /// The reason a response with `status` and `headers` cannot be delivered, or
    /// `nil` when it can.
    static func problem(status: Int, headers: [String: String]) -> String? {
        guard (200...599).contains(status) else {
            return "status \(status) is not a final HTTP status (use 200...599)"
        }
        if status == 401, headers.containsField("WWW-Authenticate") {
            return "a 401 response with a WWW-Authenticate header cannot be stubbed: Foundation on Linux starts an authentication challenge for it and the request never completes; drop the WWW-Authenticate header (the 401 and its body are still delivered)"
        }
        return nil
    }

    /// The reason this response is refused, or `nil` when it can be delivered.
    var refusal: String? {
        switch kind {
        case let .refused(reason):
            reason
        case let .sequence(responses):
            responses.lazy.compactMap(\.refusal).first.map { "a response in the sequence is refused: \($0)" }
        case .http, .failure:
            nil
        }
    }
}
