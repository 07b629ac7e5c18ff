/// The path parameters a match captured: for a template with one parameter, the
/// template itself, decoded from the request's path only when read.
///
/// Most requests a template answers never have their parameters read (a fixed
/// answer does not look at them), and most templates have one parameter, so
/// matching builds no dictionary for them: it notes the template, and
/// ``RecordedRequest/pathParameters`` asks it again. Each read then makes a new
/// dictionary, which is only safe for one entry: two dictionaries with the same
/// entries may list them in different orders, and code that pairs two reads
/// (`zip(request.pathParameters.keys, request.pathParameters.values)`) must see one
/// order. Captures of two or more parameters are decoded once, as they are matched.
struct PathCaptures: Sendable {
    private enum Kind: Sendable {
        /// Nothing was captured.
        case none
        /// What this template, which has one parameter, captures from the
        /// request's path.
        case template(URLPattern)
        /// Parameters decoded once: two or more of them, or those of several
        /// templates, merged.
        case values([String: String])
    }

    private var kind: Kind

    /// Nothing captured.
    static let none = PathCaptures(kind: .none)

    private init(kind: Kind) {
        self.kind = kind
    }

    /// What `template` captures from `path` (the path as patterns match it), or
    /// `nil` when the path does not match; the path is walked once either way.
    init?(matching template: URLPattern, path: String) {
        guard template.parameterCount > 1 else {
            guard template.matches(path: path) else { return nil }
            kind = template.parameterCount == 0 ? .none : .template(template)
            return
        }
        guard let values = template.parameters(inPath: path) else { return nil }
        kind = .values(values)
    }

    /// The captured parameters, percent-decoded, from `path`: the path of the
    /// request that was matched, as patterns match it.
    func values(inPath path: String) -> [String: String] {
        switch kind {
        case .none:
            [:]
        case let .template(template):
            // The template matched this path when the request was resolved.
            template.parameters(inPath: path) ?? [:]
        case let .values(values):
            values
        }
    }

    /// Adds what `other` captured from `path`, keeping this one's value of a name
    /// both captured.
    mutating func merge(_ other: PathCaptures, inPath path: String) {
        switch (kind, other.kind) {
        case (_, .none):
            return
        case (.none, _):
            self = other
        default:
            kind = .values(values(inPath: path).merging(other.values(inPath: path)) { own, _ in own })
        }
    }
}

extension PathCaptures: Hashable {
    /// Whether two captures are the same: the same template (one object), or the
    /// same decoded values. Captures of one request that are equal give the same
    /// parameters; two that differ only in form are taken as different, which at
    /// worst runs a predicate once more.
    static func == (lhs: PathCaptures, rhs: PathCaptures) -> Bool {
        switch (lhs.kind, rhs.kind) {
        case (.none, .none): true
        case let (.template(left), .template(right)): left === right
        case let (.values(left), .values(right)): left == right
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch kind {
        case .none:
            hasher.combine(0)
        case let .template(template):
            hasher.combine(1)
            hasher.combine(ObjectIdentifier(template))
        case let .values(values):
            hasher.combine(2)
            hasher.combine(values)
        }
    }
}
