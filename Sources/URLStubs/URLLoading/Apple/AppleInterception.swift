#if canImport(ObjectiveC)
import Foundation
import ObjectiveC

/// How ``StubInterception``'s opt-ins work on Apple platforms.
enum AppleInterception {
    /// `URLProtocol.registerClass` affects `URLSession.shared` (and legacy loads)
    /// only; registered once.
    private static let sharedSessionRegistration: Bool = {
        ResumeHook.install()
        return URLProtocol.registerClass(StubURLProtocol.self)
    }()

    /// The replaced configuration factories, installed once.
    private static let configurationFactories: [String] = {
        ResumeHook.install()
        let stubbed = ["defaultSessionConfiguration", "ephemeralSessionConfiguration"].filter(prependStubProtocol)
        return stubbed + (reportBackgroundConfigurations() ? ["backgroundSessionConfigurationWithIdentifier:"] : [])
    }()

    /// Makes requests of `URLSession.shared` go through ``StubURLProtocol``.
    static func interceptSharedSession() {
        _ = sharedSessionRegistration
    }

    /// Makes `.default` and `.ephemeral` configurations created from now on list
    /// ``StubURLProtocol`` first.
    static func interceptDefaultConfigurations() {
        _ = configurationFactories
    }

    /// Replaces `+[NSURLSessionConfiguration backgroundSessionConfigurationWithIdentifier:]`
    /// with one that reports each background configuration made while the opt-in
    /// is on (it cannot be stubbed: background sessions never consult URL
    /// protocols) as a problem of the stub scope it is made in, or as a warning
    /// outside any scope; returns whether the method was found.
    private static func reportBackgroundConfigurations() -> Bool {
        let selector = NSSelectorFromString("backgroundSessionConfigurationWithIdentifier:")
        guard let method = class_getClassMethod(URLSessionConfiguration.self, selector) else { return false }
        typealias Factory = @convention(c) (AnyObject, Selector, NSString) -> URLSessionConfiguration
        let original = unsafeBitCast(method_getImplementation(method), to: Factory.self)
        let replacement: @convention(block) (AnyObject, NSString) -> URLSessionConfiguration = { configurationClass, identifier in
            StubRegistry.shared.reportUnstubbable(backgroundIdentifier: identifier as String, on: .current)
            return original(configurationClass, selector, identifier)
        }
        method_setImplementation(method, imp_implementationWithBlock(replacement))
        return true
    }

    /// Replaces the class method `+[NSURLSessionConfiguration <factory>]` with one
    /// that puts ``StubURLProtocol`` first in the configuration it returns; returns
    /// whether the method was found.
    ///
    /// The factory is replaced, not the `protocolClasses` getter, which is reported
    /// to corrupt the list on iOS 26 when swapped for a Swift method.
    private static func prependStubProtocol(to factory: String) -> Bool {
        let selector = NSSelectorFromString(factory)
        guard let method = class_getClassMethod(URLSessionConfiguration.self, selector) else { return false }
        typealias Factory = @convention(c) (AnyObject, Selector) -> URLSessionConfiguration
        let original = unsafeBitCast(method_getImplementation(method), to: Factory.self)
        let replacement: @convention(block) (AnyObject) -> URLSessionConfiguration = { configurationClass in
            let configuration = original(configurationClass, NSSelectorFromString(factory))
            configuration.prependStubProtocol()
            return configuration
        }
        method_setImplementation(method, imp_implementationWithBlock(replacement))
        return true
    }
}
#endif
