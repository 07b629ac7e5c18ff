#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Opt-ins that stub sessions you do not build yourself: `URLSession.shared`, and
/// sessions made from `.default` or `.ephemeral` configurations.
///
/// Injecting `URLSession.stubbed` into the code under test is the way that works
/// everywhere. These opt-ins are for code that reaches for `URLSession.shared` or
/// builds its own session, on Apple platforms only: on Linux, Foundation consults
/// its built-in HTTP protocol before any registered class, so they throw
/// ``StubInterceptionError/unsupportedOnLinux``.
///
/// Once enabled they stay enabled for the life of the process; requests of those
/// sessions are then answered by stub scopes exactly like those of
/// `URLSession.stubbed` (an unmatched one fails, never reaching the network).
public enum StubInterception {
    /// Registers ``StubURLProtocol`` with `URLProtocol.registerClass`, so requests
    /// of `URLSession.shared` are answered by stubs. Idempotent and thread-safe.
    ///
    /// - Throws: ``StubInterceptionError/unsupportedOnLinux`` on Linux.
    public static func interceptSharedSession() throws {
        #if canImport(ObjectiveC)
        AppleInterception.interceptSharedSession()
        #else
        throw StubInterceptionError.unsupportedOnLinux
        #endif
    }

    /// Makes every `.default` and `.ephemeral` configuration created from now on
    /// list ``StubURLProtocol`` first in its `protocolClasses` (and use the classic
    /// URL loader), so sessions built from them are answered by stubs. Idempotent
    /// and thread-safe.
    ///
    /// Sessions that already exist keep their configuration: call this before the
    /// code under test creates its session. A background configuration made from
    /// then on cannot be stubbed (background sessions never consult URL
    /// protocols): each is reported as a problem of the stub scope it is made in,
    /// or as a warning outside any scope.
    ///
    /// - Throws: ``StubInterceptionError/unsupportedOnLinux`` on Linux.
    public static func interceptDefaultConfigurations() throws {
        #if canImport(ObjectiveC)
        AppleInterception.interceptDefaultConfigurations()
        #else
        throw StubInterceptionError.unsupportedOnLinux
        #endif
    }

    /// Installs, once, what capturing scopes needs on this platform: the `resume`
    /// hook on Apple platforms; nothing on Linux, where the protocol's `init`
    /// runs on the caller's task.
    static func prepare() {
        #if canImport(ObjectiveC)
        ResumeHook.install()
        #endif
    }
}

/// Why an interception opt-in cannot be enabled.
public enum StubInterceptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Foundation on Linux consults its own HTTP protocol before any registered
    /// class, so sessions URLStubs did not configure cannot be intercepted there.
    case unsupportedOnLinux
    /// A background configuration (the identifier it was made with) was given to
    /// `URLSessionConfiguration.stubbed(from:)`: background sessions
    /// never consult URL protocols, so their requests would reach the network.
    case backgroundConfiguration(identifier: String)

    /// A sentence saying why, and what to do instead.
    public var description: String {
        switch self {
        case .unsupportedOnLinux: IntegrationMessages.sharedSessionUnsupported
        case let .backgroundConfiguration(identifier): ScopeMessages.backgroundConfiguration(identifier)
        }
    }
}
