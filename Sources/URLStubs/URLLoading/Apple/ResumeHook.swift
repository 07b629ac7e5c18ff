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
/// `NSURLSessionTask` is hooked, and `NWURLSessionTask` (the tasks of Apple's
/// Network.framework loader) where the OS has it, and so is every class in the
/// chain of a freshly made data task of either loader that implements `resume`
/// itself, so that an override in a private subclass cannot skip the tag.
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
        func hook(_ someClass: AnyClass) {
            let name = NSStringFromClass(someClass)
            guard !hooked.contains(name), !missed.contains(name) else { return }
            if replaceResume(of: someClass) {
                hooked.append(name)
            } else {
                missed.append(name)
            }
        }
        hook(URLSessionTask.self)
        // Apple's Network.framework loader (iOS 18.4, macOS 15.4 and later) makes
        // `NWURLSessionTask`s: a hierarchy of its own, beside NSURLSessionTask.
        // Found by name; an OS without it has nothing more to hook.
        if let networkTask = NSClassFromString("NWURLSessionTask"), implementsResume(networkTask) {
            hook(networkTask)
        }
        // Walk the class chain of a real data task of each loader, never resumed.
        for classic in [true, false] {
            let configuration = URLSessionConfiguration.ephemeral
            guard classic || ClassicLoadingMode.select(false, on: configuration) else { continue }
            let session = URLSession(configuration: configuration)
            let task = session.dataTask(with: URL(string: "about:blank")!)
            var current: AnyClass? = object_getClass(task)
            while let someClass = current, someClass != NSObject.self {
                if implementsResume(someClass) {
                    hook(someClass)
                }
                current = class_getSuperclass(someClass)
            }
            task.cancel()
            session.invalidateAndCancel()
        }
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
        // The receiver is typed as a task, unchecked: an NWURLSessionTask does not
        // inherit from NSURLSessionTask, but URLSession hands it out as one and it
        // answers its messages (the same trust Swift places in every task
        // URLSession returns).
        let replacement: @convention(block) (URLSessionTask) -> Void = { task in
            TaskScopes.shared.tagOnFirstResume(task)
            original(task, NSSelectorFromString("resume"))
        }
        method_setImplementation(method, imp_implementationWithBlock(replacement))
        return true
    }
}
#endif
