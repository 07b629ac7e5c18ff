/// The path parameters a match captured, kept as the template that captured them
/// and decoded from the request's path only when they are read.
///
/// Most requests a template answers never have their parameters read (a fixed
/// answer does not look at them), so matching builds no dictionary: it notes the
/// template, and ``RecordedRequest/pathParameters`` asks it again.
struct PathCaptures: Sendable {
    private enum Kind: Sendable {
        /// Nothing was captured.
        case none
        /// What this template captures from the request's path.
        case template(URLPattern)
        /// Parameters already decoded (those of several templates, merged).
        case values([String: String])
    }

    private var kind: Kind

    /// Nothing captured.
    static let none = PathCaptures(kind: .none)

    private init(kind: Kind) {
        self.kind = kind
    }

    /// What `template`, which matched the request's path, captures from it.
    init(template: URLPattern) {
        kind = template.parameterCount == 0 ? .none : .template(template)
    }

    /// The captured parameters, percent-decoded, from `path`: the percent-encoded
    /// path of the request that was matched.
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
