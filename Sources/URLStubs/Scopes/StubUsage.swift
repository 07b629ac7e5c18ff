/// How many requests one stub of an ended scope answered; for test-framework
/// integrations (a suite's unused baseline stubs), not part of the public API.
@_spi(Integration)
public struct StubUsage: Sendable, Hashable {
    /// The stub's pattern in words.
    public let pattern: String
    /// Where the stub was registered.
    public let location: StubSourceLocation
    /// The requests it answered.
    public let hits: Int
}
