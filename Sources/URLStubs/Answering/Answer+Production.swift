#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension Answer {
    /// The answer of a resolution that needs no waiting (a failure, or a response
    /// without a delay); `nil` for a deferred one, which ``produce(_:in:)`` produces.
    init?(immediately resolution: StubRegistry.Resolution) {
        switch resolution {
        case let .fail(error):
            self = .failure(error)
        case let .respond(response, request) where response.delay == nil:
            self.init(response, for: request)
        case .respond, .compute:
            return nil
        }
    }

    /// Produces the answer of a delayed or computed resolution: waits out the delay,
    /// or runs the stub's closure in the request's scope (so that requests it makes
    /// are answered there too) and then waits out its response's delay.
    ///
    /// Returns `nil` when the calling task is cancelled first: whoever cancelled it
    /// (a stop, a cancel, or the scope's end) answers the request itself.
    static func produce(_ resolution: StubRegistry.Resolution, in scope: StubScope?) async -> Answer? {
        switch resolution {
        case let .respond(response, request):
            guard await sleep(response.delay) else { return nil }
            return Answer(response, for: request)
        case let .compute(respond, request):
            do {
                let response = try await StubScope.currentBinding.withValue(scope) { try await respond(request) }
                guard await sleep(response.delay) else { return nil }
                return Answer(response, for: request)
            } catch {
                return Task.isCancelled ? nil : .failure(error)
            }
        case let .fail(error):
            return .failure(error)
        }
    }

    /// Waits `delay`; returns `false` when cancelled first.
    private static func sleep(_ delay: Duration?) async -> Bool {
        guard let delay else { return !Task.isCancelled }
        return await sleepUnlessCancelled(for: delay)
    }
}
