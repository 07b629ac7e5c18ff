/// A request's scope chain: the scopes its stubs are searched in, nearest first.
/// The scope it was made in, the scopes enclosing it that are still open, and the
/// global scope (unless the request's scope is the global one); the request is
/// logged along it too.
///
/// A collection of its own rather than an array: a chain is built for every
/// request, and most scopes are not nested, so that their chain (the scope and the
/// global scope) is two references kept inline, with no allocation.
struct ScopeChain: RandomAccessCollection {
    /// The scope the request was made in.
    let home: ScopeState
    /// The scopes enclosing `home` that are still open, innermost first; empty
    /// (and unallocated) for a scope that is not nested.
    private let enclosing: [ScopeState]
    /// The global scope, or `nil` when `home` is the global scope.
    private let global: ScopeState?

    /// The chain of `home`, whose open enclosing scopes are `enclosing` (innermost
    /// first), ending with `global` unless `home` is the global scope.
    init(home: ScopeState, enclosing: [ScopeState], global: ScopeState) {
        self.home = home
        self.enclosing = enclosing
        self.global = home.scope.isGlobal ? nil : global
    }

    /// Walks the chain nearest first. Its own, rather than the collection's
    /// default: in a debug build (where tests run) that default reaches each
    /// scope through a chain of generic calls, for every request.
    struct Iterator: IteratorProtocol {
        private let chain: ScopeChain
        private var position = 0

        fileprivate init(_ chain: ScopeChain) {
            self.chain = chain
        }

        mutating func next() -> ScopeState? {
            guard position < chain.endIndex else { return nil }
            let scope = chain[position]
            position += 1
            return scope
        }
    }

    func makeIterator() -> Iterator {
        Iterator(self)
    }

    var startIndex: Int { 0 }

    var endIndex: Int { 1 + enclosing.count + (global == nil ? 0 : 1) }

    subscript(position: Int) -> ScopeState {
        if position == 0 {
            return home
        }
        if position <= enclosing.count {
            return enclosing[position - 1]
        }
        precondition(position == enclosing.count + 1, "ScopeChain index \(position) out of range")
        // Present whenever the position is: endIndex counts it only then.
        return global!
    }
}
