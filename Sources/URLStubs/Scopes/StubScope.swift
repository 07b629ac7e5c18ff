#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A namespace of stubs that answers the requests made while it is current.
///
/// A scope is opened by ``withStubScope(_:fileID:filePath:line:column:isolation:_:)``
/// (or the `.stubbed` trait of `URLStubsTesting`) and is bound to the running task
/// and every child task it creates. A request made through a stubbed session is
/// answered by the stubs of the scope that was current where the request was
/// resumed, then by the stubs of the scopes enclosing it, then by the process-wide
/// stubs of ``global``. Stubs registered in one scope are never seen by another
/// scope, so tests running in parallel through one shared `URLSession` stay isolated.
///
/// `StubScope` is a small, `Sendable` handle: copying it is free, and every method
/// talks to the registry that owns the scope's stubs and request log.
public struct StubScope: Sendable, Hashable {
    /// The identifier of the scope's namespace in the registry.
    let id: UInt64

    init(id: UInt64) {
        self.id = id
    }

    /// The scope of the running task, or `nil` when no scope is open.
    ///
    /// `withStubScope` (and the `.stubbed` trait) make a scope current for the task
    /// that runs its body. Child tasks created with `Task {}`, `async let` and task
    /// groups inherit the scope; `Task.detached` and `DispatchQueue` blocks do not.
    public static var current: StubScope? {
        currentBinding.get()
    }

    /// The task-local that holds ``current``; only `withStubScope` and the
    /// integrations bind it.
    static let currentBinding = TaskLocal<StubScope?>(wrappedValue: nil)

    /// The process-wide namespace that answers requests no scope answers.
    ///
    /// Stubs registered here are seen by every request in the process, whether it is
    /// made inside a scope (after that scope's own stubs and those of its enclosing
    /// scopes) or outside any scope, for example from a `Task.detached`. Because it
    /// is shared by every test, prefer a scope's own stubs and keep global stubs for
    /// traffic that truly belongs to the whole process. The global scope never ends.
    public static let global = StubScope(id: 0)

    /// A scope that is never open, for integrations that must return a scope where
    /// none exists: stubs registered on it are ignored with a warning.
    @_spi(Integration)
    public static let unavailable = StubScope(id: .max)

    /// Whether this is the process-wide ``global`` scope.
    public var isGlobal: Bool {
        id == Self.global.id
    }
}

extension StubScope: CustomStringConvertible {
    /// A short identification of the scope, such as `scope #12` or `global scope`.
    public var description: String {
        isGlobal ? "global scope" : "scope #\(id)"
    }
}
