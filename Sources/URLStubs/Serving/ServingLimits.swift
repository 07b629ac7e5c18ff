/// The limits a served scope holds every client to, so that a broken or hostile
/// client gets a clear refusal instead of holding the test process's memory or
/// threads.
///
/// ```swift
/// var limits = ServingLimits()
/// limits.bodyBytes = 64 * 1_024 * 1_024   // uploads of up to 64 MiB
/// let server = try await scope.serve(limits: limits)
/// ```
///
/// A timeout judges what the client sent in time, not how soon the server got to
/// it: bytes already received when a busy machine's connection thread finds the
/// time passed are still read, those sent later are not.
public struct ServingLimits: Sendable, Hashable {
    /// The largest request head (request line and header lines) accepted, in
    /// bytes; a larger one is answered `431` (or `414` when the request line alone
    /// is too long). 32 KiB by default.
    public var headBytes = 32 * 1_024
    /// The most header lines a request may have; more are answered `431`. 100 by default.
    public var headerCount = 100
    /// The largest request body accepted, in bytes; a larger one is answered `413`
    /// (before it is read when its length is declared). 16 MiB by default.
    public var bodyBytes = 16 * 1_024 * 1_024
    /// The most connections open at once; one more is answered `503` and closed.
    /// 128 by default.
    public var connections = 128
    /// How long a connection may stay open with no request on it (keep-alive);
    /// then it is closed. 30 seconds by default.
    public var idleTimeout: Duration = .seconds(30)
    /// How long a request head may take to arrive once its first byte came; a
    /// slower one (a slowloris client) is answered `408` and closed. 10 seconds by
    /// default.
    public var headTimeout: Duration = .seconds(10)
    /// How long a request body may take to arrive once its head came; a slower
    /// one is answered `408` and closed. 30 seconds by default.
    public var bodyTimeout: Duration = .seconds(30)

    /// The default limits.
    public init() {}

    /// The first limit that is not greater than zero, named, with its value.
    var problem: (name: String, value: String)? {
        let counts: [(String, Int)] = [("headBytes", headBytes), ("headerCount", headerCount), ("bodyBytes", bodyBytes), ("connections", connections)]
        if let bad = counts.first(where: { $0.1 <= 0 }) {
            return (bad.0, String(bad.1))
        }
        let durations: [(String, Duration)] = [("idleTimeout", idleTimeout), ("headTimeout", headTimeout), ("bodyTimeout", bodyTimeout)]
        if let bad = durations.first(where: { $0.1 <= .zero }) {
            return (bad.0, String(describing: bad.1))
        }
        return nil
    }
}
