/// The measurements the executable can run, by the name `--filter` takes.
enum MeasurementKind: String, CaseIterable, Sendable {
    /// The cost of `StubURLProtocol.canInit(with:)`.
    case canInit
    /// One request at a time through URLSession, URLStubs against the hand-rolled protocol.
    case interception
    /// The shapes test suites have: computed and template stubs asked for a
    /// different URL each time, a whole test's scope, unmatched requests; against
    /// the hand-rolled protocol.
    case shapes
    /// Requests with 1 MiB and 10 MiB bodies, URLStubs against the hand-rolled protocol.
    case bodies
    /// Streams of 1,000 to 200,000 chunks through URLSession: time per chunk.
    case streams
    /// Requests per second from one task and from 64 concurrent scopes.
    case throughput
    /// Registering many stubs, and closing a scope that holds many.
    case registration
    /// The time the registry takes to find a stub.
    case matching
    /// Resident memory before and after many scopes.
    case memory
    /// A served scope over loopback HTTP against a minimal socket server; start and stop.
    case served
    /// Isolation under churn, cancellation storms, scope end under load, memory after cancels.
    case stress
}
