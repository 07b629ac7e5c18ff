#if canImport(ObjectiveC)
import Foundation

/// Apple's choice of URL loader for a session configuration.
///
/// From iOS 18.4, macOS 15.4 (and the matching tvOS, watchOS, visionOS), a
/// configuration whose `usesClassicLoadingMode` is `false` loads through a
/// Network.framework-based loader; Apple's header says the default may change in
/// a future OS. That loader's tasks are `NWURLSessionTask`s, and it may call a URL
/// protocol with another task object than the one resumed, on a queue rather than
/// a run-loop thread. Stubbed configurations select the classic loader, where the
/// protocol is given the very task that was resumed.
///
/// The property is reached through key-value coding behind `responds(to:)`: it is
/// absent from older SDKs and OSes, where there is only the classic loader.
enum ClassicLoadingMode {
    /// Sets `usesClassicLoadingMode` of `configuration` to `classic`; returns
    /// whether the OS has the property.
    @discardableResult
    static func select(_ classic: Bool, on configuration: URLSessionConfiguration) -> Bool {
        guard configuration.responds(to: NSSelectorFromString("setUsesClassicLoadingMode:")) else { return false }
        configuration.setValue(classic, forKey: "usesClassicLoadingMode")
        return true
    }

    /// Whether `configuration` loads through the classic loader: `nil` where the
    /// OS has only that one.
    static func isClassic(_ configuration: URLSessionConfiguration) -> Bool? {
        guard configuration.responds(to: NSSelectorFromString("usesClassicLoadingMode")) else { return nil }
        return configuration.value(forKey: "usesClassicLoadingMode") as? Bool
    }
}
#endif
