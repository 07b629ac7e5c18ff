#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension Answer {
    /// The answer as `URLSession.data(for:)` gives it: the body and response, or
    /// the thrown error.
    func result() throws -> (Data, URLResponse) {
        switch self {
        case let .response(response, body):
            return (body, response)
        case let .failure(error):
            throw error
        }
    }
}
