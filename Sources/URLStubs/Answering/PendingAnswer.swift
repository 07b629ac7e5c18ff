import Foundation

/// A request whose answer is delayed or computed, as the registry sees it while the
/// answer is being produced: the request's scope fails it if it ends first.
///
/// Two kinds of request wait this way: one loaded through `URLSession`
/// (``Delivery``) and one answered directly by a scope (``DirectAnswer``). Each
/// tells the registry it is settled (``StubRegistry/settle(_:in:)``) before its
/// answer reaches its caller, so a test that awaited it never sees it abandoned.
protocol PendingAnswer: AnyObject, Sendable {
    /// Fails the request with `error` because its scope ended first, and stops
    /// producing its answer. Called by the registry, outside its lock.
    func abandon(with error: URLError)
}
