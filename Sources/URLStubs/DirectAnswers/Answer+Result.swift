#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension Answer {
    /// The answer with a streamed body played to its end and joined, as
    /// `URLSession.data(for:)` returns it (its interruption included); `nil` when
    /// the stream was cancelled first.
    func whole() async -> Answer? {
        guard case let .stream(response, playback) = self else { return self }
        let body = Locked(Data())
        let end = await playback.play { piece in
            body.withLock { $0.append(piece) }
            return true
        }
        switch end {
        case .finished?:
            return .response(response, body.withLock { $0 })
        case let .failed(error)?:
            return .failure(error)
        case nil:
            return nil
        }
    }

    /// The answer as `URLSession.data(for:)` gives it: the body and response, or
    /// the thrown error; a stream must be made ``whole()`` first.
    func result() throws -> (Data, URLResponse) {
        switch self {
        case let .response(response, body):
            return (body, response)
        case let .stream(response, _):
            return (Data(), response) // Not reached: direct answers play streams whole first.
        case let .redirect(response, body, _):
            return (body, response) // Not reached: direct answers follow redirects.
        case let .failure(error):
            throw error
        }
    }
}
