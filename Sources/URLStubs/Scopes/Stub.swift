/// A handle on a registered stub: ask how often it answered, or remove it.
public struct Stub: Sendable, Hashable {
    /// The stub's identifier, unique in the process.
    let id: UInt64
    /// The scope the stub was registered in.
    public let scope: StubScope
    /// The stub's pattern in words.
    public var pattern: String {
        requestPattern.description
    }
    /// Where the stub was registered.
    public let location: StubSourceLocation
    /// The pattern, written out only when asked: registering is on a test's path.
    let requestPattern: RequestPattern

    init(id: UInt64, scope: StubScope, pattern: RequestPattern, location: StubSourceLocation) {
        self.id = id
        self.scope = scope
        self.location = location
        requestPattern = pattern
    }

    /// Whether the two are the same registration (identifiers are unique in the
    /// process; a stub ignored because its scope had ended has none, and is told
    /// apart by where it was written).
    public static func == (lhs: Stub, rhs: Stub) -> Bool {
        lhs.id == rhs.id && lhs.scope == rhs.scope && lhs.location == rhs.location
    }

    /// Hashes the registration's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(scope)
    }

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
