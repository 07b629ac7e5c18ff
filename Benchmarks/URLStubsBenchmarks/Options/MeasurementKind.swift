/// The measurements the executable can run, by the name `--filter` takes.
enum MeasurementKind: String, CaseIterable, Sendable {
    /// The cost of `StubURLProtocol.canInit(with:)`.
    case canInit
    /// The time a request takes through `URLSession.data(for:)`.
    case interception
    /// Requests per second with many scopes sharing one session.
    case throughput
    /// The time the registry takes to find a stub.
    case matching
    /// Resident memory before and after many scopes.
    case memory
}
