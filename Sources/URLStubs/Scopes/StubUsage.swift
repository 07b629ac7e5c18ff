/// How many requests one stub of an ended scope answered; for test-framework
/// integrations (a suite's unused baseline stubs), not part of the public API.
///
/// Every scope's end lists its stubs' usage, but only a suite's baseline tally
/// reads it: the pattern is written out in words when asked for, not when the
/// scope ends. Two usages are equal when their words, location and count are.
@_spi(Integration)
public struct StubUsage: Sendable, Hashable {
    /// The stub's pattern in words.
    public var pattern: String {
        stubPattern.description
    }
    /// Where the stub was registered.
    public let location: StubSourceLocation
    /// The requests it answered.
    public let hits: Int
    /// The stub's pattern, written out by ``pattern``.
    private let stubPattern: RequestPattern

    init(pattern: RequestPattern, location: StubSourceLocation, hits: Int) {
        stubPattern = pattern
        self.location = location
        self.hits = hits
    }

    /// Whether both name the same pattern in words, location and count.
    public static func == (lhs: StubUsage, rhs: StubUsage) -> Bool {
        lhs.location == rhs.location && lhs.hits == rhs.hits && lhs.pattern == rhs.pattern
    }

    /// Hashes the pattern in words, the location and the count.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(location)
        hasher.combine(hits)
    }
}
