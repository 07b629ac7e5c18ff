#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Requests made the pre-concurrency way, for the completion-handler rows.
extension URLSession {
    /// Makes `request` with `dataTask(with:completionHandler:)` and `resume()`,
    /// bridged to `async` with a checked continuation; returns the body.
    ///
    /// The task is created and resumed synchronously on the calling task (a
    /// continuation's body runs before the caller suspends), as a test calling
    /// completion-handler code from an `async` test would.
    func dataThroughCompletionHandler(for request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            let task = dataTask(with: request) { data, _, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: data ?? Data())
                }
            }
            task.resume()
        }
    }
}
