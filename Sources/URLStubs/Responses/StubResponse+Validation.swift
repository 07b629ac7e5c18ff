#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension StubResponse {
    /// The reason a response with `status` and `headers` cannot be delivered, or
    /// `nil` when it can.
    static func problem(status: Int, headers: [String: String]) -> String? {
        guard (200...599).contains(status) else {
            return ResponseMessages.invalidStatus(status)
        }
        if status == 401, headers.containsField("WWW-Authenticate") {
            return ResponseMessages.authenticationChallenge
        }
        return nil
    }

    /// The reason this response is refused, or `nil` when it can be delivered.
    var refusal: String? {
        switch kind {
        case let .refused(reason):
            reason
        case let .sequence(responses):
            responses.lazy.compactMap(\.refusal).first.map(ResponseMessages.refusedInSequence)
        case .http, .stream, .failure:
            nil
        }
    }
}
