import Foundation

/// A request whose answer is delayed or computed, as the registry sees it while the
/// answer is being produced: the request's scope fails it if it ends first.
///
/// Two kinds of request wait this way: one loaded through `URLSession`
/// (``DeliveryDriver``) and one answered directly by a scope (``DirectAnswer``). Each
/// settles itself in the registry (``StubRegistry/settle(_:on:)``) the moment its
/// answer is produced, before that answer can reach its caller, and keeps the
/// answer only if it was still in flight: a test that awaited the request, or
/// whose answer was ready inside the scope, never sees it abandoned, and a request
/// the scope's end took is failed by ``abandon(with:)``, never answered.
protocol PendingAnswer: AnyObject, Sendable {
    /// Fails the request with `error` because its scope ended first, and returns
    /// the task producing its answer, which the registry cancels once every request
    /// of the scope has been failed (so that the failures go first). Called by the
    /// registry, outside its lock.
    func abandon(with error: URLError) -> Task<Void, Never>?
}
