#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Follows the redirects stubs answer with inside the request's scope: each hop
/// is a request of its own, logged and resolved like the first, up to
/// ``hopLimit`` in a row.
///
/// Used where Foundation cannot follow a redirect itself: URLSession on Linux
/// (its `wasRedirectedTo` stops the process) and direct answers. On Apple
/// platforms URLSession follows them (see ``Answer/calls``).
struct RedirectFollower {
    /// The most redirects followed in a row; one more fails the request.
    static let hopLimit = 10

    /// The scope the hops are resolved in, as the registry takes it.
    let route: RequestRoute
    /// Whether hops are followed here; otherwise a redirect is the answer.
    let isFollowing: Bool
    /// The redirects followed so far.
    private(set) var hops = 0

    /// The resolution of the request `answer` redirects to, or `nil` when `answer`
    /// is final; past the hop limit `answer` becomes `URLError.httpTooManyRedirects`.
    /// For an answer given at once: nothing of the request is in flight.
    mutating func next(after answer: inout Answer, pending: some PendingAnswer) -> StubRegistry.Resolution? {
        guard let hop = hop(after: &answer) else { return nil }
        return StubRegistry.shared.resolve(hop, body: hop.httpBody, route: route, pending: pending)
    }

    /// The request `answer` redirects to, counted as a hop, or `nil` when `answer`
    /// is final; past the hop limit `answer` becomes `URLError.httpTooManyRedirects`.
    private mutating func hop(after answer: inout Answer) -> URLRequest? {
        guard isFollowing, case let .redirect(response, _, next) = answer else { return nil }
        guard hops < Self.hopLimit else {
            let message = FailureMessages.tooManyRedirects(response, to: next, hops: hops)
            answer = .failure(StubFailure.error(message, url: response.url, code: .httpTooManyRedirects))
            return nil
        }
        hops += 1
        return next
    }

    /// Produces the answer of the deferred `resolution` and follows its redirects:
    /// returns the final answer, settled in the registry unless it is a stream
    /// (settled when it ends), or `nil` when the request was cancelled or its
    /// scope ended first.
    ///
    /// A produced redirect stays in flight until the hop it leads to is resolved
    /// in its place (``StubRegistry/resolve(hop:replacingFlightOf:route:)``), and
    /// the request stays in flight from hop to hop until its final answer is
    /// settled: a cancel or the scope's end between two hops still finds it, and
    /// decides how it ends.
    mutating func produce(_ resolution: StubRegistry.Resolution, for pending: some PendingAnswer) async -> Answer? {
        var resolution = resolution
        // Whether `pending` is in flight for `resolution`: from the first produced
        // answer on, it is.
        var isInFlight = false
        while true {
            var answer: Answer
            if let immediate = Answer(immediately: resolution) {
                answer = immediate
            } else {
                guard let produced = await Answer.produce(resolution, on: route) else { return nil }
                if case .stream = produced {
                    return produced
                }
                answer = produced
                isInFlight = true
            }
            guard let hop = hop(after: &answer) else {
                // When the scope ended first, its failure comes through abandon(with:).
                if isInFlight, !StubRegistry.shared.settle(pending, on: route) {
                    return nil
                }
                return answer
            }
            if isInFlight {
                guard let next = StubRegistry.shared.resolve(hop: hop, replacingFlightOf: pending, route: route) else { return nil }
                resolution = next
            } else {
                resolution = StubRegistry.shared.resolve(hop, body: hop.httpBody, route: route, pending: pending)
            }
        }
    }
}
