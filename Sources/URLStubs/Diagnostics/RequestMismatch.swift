/// One way in which a request differs from a stub's pattern.
///
/// Near-miss reports list these for the stubs that came closest to an unmatched
/// request, so that a wrong method, host, path, query, header or body, or a
/// scenario in another state, is named rather than left to guess.
public struct RequestMismatch: Sendable, Hashable {
    /// The part of the request that differed.
    public enum Aspect: String, Sendable, Hashable, CaseIterable {
        /// The HTTP method.
        case method
        /// The scheme, host or port.
        case origin
        /// The whole URL, compared with a regular expression
        /// (``RequestPattern/url(matching:)-swift.type.method``).
        case url
        /// The path.
        case path
        /// The query items.
        case query
        /// A header field.
        case header
        /// The body.
        case body
        /// A custom predicate, or a pattern the request must not match
        /// (``RequestPattern/not(_:)``, ``RequestPattern/excluding(_:)``).
        case predicate
        /// The pattern itself, which is malformed and can match nothing.
        case pattern
        /// The state of a scenario the stub requires: ``RequestMismatch/expected``
        /// is the state the stub needs, ``RequestMismatch/actual`` the state
        /// ``RequestMismatch/scenario`` is in.
        case scenario
    }

    /// The part of the request that differed.
    public let aspect: Aspect
    /// What the pattern expected, in words.
    public let expected: String
    /// What the request had, in words.
    public let actual: String
    /// The name of the scenario whose state differed, for a ``Aspect/scenario``
    /// mismatch; `nil` otherwise.
    public let scenario: String?

    /// Creates a mismatch of `aspect`.
    init(aspect: Aspect, expected: String, actual: String) {
        self.aspect = aspect
        self.expected = expected
        self.actual = actual
        scenario = nil
    }

    /// Creates the mismatch of a stub that requires `scenario` to be in the state
    /// `expected` while it is in `actual`.
    init(scenario: String, expected: String, actual: String) {
        aspect = .scenario
        self.expected = expected
        self.actual = actual
        self.scenario = scenario
    }
}

extension RequestMismatch: CustomStringConvertible {
    /// The mismatch written as `path: expected /users/{id}, got /user/7`, or as
    /// `scenario: "cart" is in "empty", not "filled"`.
    public var description: String {
        var text = ""
        write(into: &text)
        return text
    }

    /// Appends the mismatch, as ``description`` writes it, to `text`.
    func write(into text: inout String) {
        switch aspect {
        case .pattern:
            text += "pattern: cannot be used: "
            text += actual
        case .scenario:
            text += "scenario: "
            text += ScenarioMessages.state(of: self)
        default:
            text += aspect.rawValue
            text += ": expected "
            text += expected
            text += ", got "
            text += actual
        }
    }
}
