#if canImport(ObjectiveC)
import Foundation
import ObjectiveC

/// The replacement for `-[NSURLSessionTask resume]` that records, on the caller's
/// task, the stub scope a task is resumed in.
///
/// On Apple platforms no URL protocol hook runs on the caller's task: CFNetwork
/// calls `canInit`, `init` and `startLoading()` on threads of its own, where the
/// task-local scope is not visible. `resume` is the one method that runs
/// synchronously on the caller's task, also inside async `data(for:)` and
/// `bytes(for:)`, so it tags the task (``TaskScopes``) and then calls the original.
///
/// Installed once, on first use of a stubbed configuration, session or scope.
/// `NSURLSessionTask` is hooked, and so is every class in the chain of a freshly
/// made data task that implements `resume` itself, so that an override in a
/// private subclass cannot skip the tag.
enum ResumeHook {
    /// What the installation did.
    struct Installation: Sendable {
        /// The classes whose own `resume` was replaced.
        let hookedClassNames: [String]
        /// Why interception may be incomplete, or `nil` when every class is covered.
        let problem: String?
    }

    /// Installed the first time it is read; Swift runs a static initializer once,
    /// thread-safely.
    private static let installation = performInstallation()

    /// Installs the hook unless it is installed already.
    static func install() {
        _ = installation
    }

    /// The classes whose own `resume` was replaced.
    static var hookedClassNames: [String] {
        installation.hookedClassNames
    }

    /// Why interception may be incomplete, or `nil` when every class is covered.
    static var problem: String? {
        installation.problem
    }

    private static func performInstallation() -> Installation {
        var hooked: [String] = []
        var missed: [String] = []
        if replaceResume(of: URLSessionTask.self) {
            hooked.append(NSStringFromClass(URLSessionTask.self))
        } else {
            missed.append(NSStringFromClass(URLSessionTask.self))
        }
        // Walk the class chain of a real data task, never resumed.
        let session = URLSession(configuration: .ephemeral)
        let task = session.dataTask(with: URL(string: "about:blank")!)
        var current: AnyClass? = object_getClass(task)
        while let someClass = current, someClass != NSObject.self {
            let name = NSStringFromClass(someClass)
            if !hooked.contains(name), implementsResume(someClass) {
                if replaceResume(of: someClass) {
                    hooked.append(name)
                } else {
                    missed.append(name)
                }
            }
            current = class_getSuperclass(someClass)
        }
        task.cancel()
        session.invalidateAndCancel()
        let problem = missed.isEmpty ? nil : FailureMessages.resumeNotHooked(missed)
        return Installation(hookedClassNames: hooked, problem: problem)
    }

    /// Whether `someClass` itself (not a superclass) implements `resume`.
    private static func implementsResume(_ someClass: AnyClass) -> Bool {
        var count: UInt32 = 0
        guard let methods = class_copyMethodList(someClass, &count) else { return false }
        defer { free(methods) }
        let resume = NSSelectorFromString("resume")
        return (0..<Int(count)).contains { method_getName(methods[$0]) == resume }
    }

    /// Replaces the `resume` that `someClass` implements with one that tags the task
    /// first; returns whether it could.
    private static func replaceResume(of someClass: AnyClass) -> Bool {
        let resume = NSSelectorFromString("resume")
        guard let method = class_getInstanceMethod(someClass, resume) else { return false }
        typealias Resume = @convention(c) (AnyObject, Selector) -> Void
        let original = unsafeBitCast(method_getImplementation(method), to: Resume.self)
        let replacement: @convention(block) (AnyObject) -> Void = { object in
            if let task = object as? URLSessionTask {
                TaskScopes.shared.tagOnFirstResume(task)
            }
            original(object, NSSelectorFromString("resume"))
        }
        method_setImplementation(method, imp_implementationWithBlock(replacement))
        return true
    }
}
#endif
