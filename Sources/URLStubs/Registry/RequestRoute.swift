/// Where a request is resolved: the scope it was made in, or none. The one value
/// for "which scope, or none", never a `nil` scope or the global scope standing
/// for none.
///
/// (Why a URL session's request has no route at all, its task never tagged with a
/// scope or tagged ambiguously, is ``TaskScopes/Tag``.)
enum RequestRoute: Sendable, Hashable {
    /// Made while `scope` was current: its stubs answer first, then those of its
    /// open enclosing scopes, then the global scope's; it is logged in the scope and
    /// its enclosing scopes, not in the global scope.
    case scope(StubScope)
    /// Made outside any scope: the global scope answers it and logs it.
    case noScope

    /// The route of a request made where `scope` is current: none for `nil` and
    /// for the global scope itself.
    init(current scope: StubScope?) {
        if let scope, !scope.isGlobal {
            self = .scope(scope)
        } else {
            self = .noScope
        }
    }

    /// The route of a request made here, in the scope current on this task.
    static var current: RequestRoute {
        RequestRoute(current: StubScope.current)
    }

    /// The scope whose state holds the request: its own, or the global scope.
    var home: StubScope {
        switch self {
        case let .scope(scope): scope
        case .noScope: .global
        }
    }

    /// The scope current while the request's answer is produced (a computed
    /// response, a stream): its own, or none.
    var scope: StubScope? {
        switch self {
        case let .scope(scope): scope
        case .noScope: nil
        }
    }
}
