/// One way in which a request differs from a stub's pattern.
///
/// Near-miss reports list these for the stubs that came closest to an unmatched
/// request, so that a wrong method, host, path, query, header or body is named
/// rather than left to guess.
public struct RequestMismatch: Sendable, Hashable {
    /// The part of the request that differed.
    public enum Aspect: String, Sendable, Hashable, CaseIterable {
        /// The HTTP method.
        case method
        /// The scheme, host or port.
        case origin
        /// The path.
        case path
        /// The query items.
        case query
        /// A header field.
        case header
        /// The body.
        case body
        /// A custom predicate.
        case predicate
        /// The pattern itself, which is malformed and can match nothing.
        case pattern
    }

    /// The part of the request that differed.
    public let aspect: Aspect
    /// What the pattern expected, in words.
    public let expected: String
    /// What the request had, in words.
    public let actual: String

    /// Creates a mismatch of `aspect`.
    public init(aspect: Aspect, expected: String, actual: String) {
        self.aspect = aspect
        self.expected = expected
        self.actual = actual
    }
}

extension RequestMismatch: CustomStringConvertible {
    /// The mismatch written as `path: expected /users/{id}, got /user/7`.
    public var description: String {
        aspect == .pattern ? "pattern: cannot be used: \(actual)" : "\(aspect.rawValue): expected \(expected), got \(actual)"
    }
}
