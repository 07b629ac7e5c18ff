/// A handle on a registered stub: ask how often it answered, or remove it.
public struct Stub: Sendable, Hashable {
    /// The stub's identifier, unique in the process.
    let id: UInt64
    /// The scope the stub was registered in.
    public let scope: StubScope
    /// The stub's pattern in words.
    public let pattern: String
    /// Where the stub was registered.
    public let location: StubSourceLocation

    /// How many requests the stub has answered so far (0 once its scope has ended
    /// or it was removed).
    nonisolated(nonsending) public var hitCount: Int {
        get async {
            StubRegistry.shared.hits(ofStub: id, in: scope) ?? 0
        }
    }

    /// Removes the stub from its scope, so that it answers no more requests and its
    /// expectation is no longer verified.
    nonisolated(nonsending) public func remove() async {
        _ = StubRegistry.shared.removeStub(id, from: scope)
    }
}

extension Stub: CustomStringConvertible {
    /// The stub written as its pattern and registration site.
    public var description: String {
        "\(pattern) (registered at \(location))"
    }
}
