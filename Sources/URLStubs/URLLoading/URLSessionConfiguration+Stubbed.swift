#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionConfiguration {
    /// A new ephemeral configuration whose requests are all answered by stubs.
    ///
    /// ``StubURLProtocol`` comes first in its protocol classes (it answers every
    /// request, so the others are never consulted) and `urlCache` is `nil`: a URL
    /// cache makes Foundation create the protocol on a background queue, where the
    /// stub scope of the calling task is not visible. Each access returns a new
    /// configuration, free to customise.
    public static var stubbed: URLSessionConfiguration {
        stubbedCopy(of: .ephemeral)
    }

    /// A copy of `base` whose requests are all answered by stubs.
    ///
    /// Use it to keep a configuration's timeouts or other settings. The copy's
    /// `protocolClasses` start with ``StubURLProtocol``, its `urlCache` is `nil`,
    /// and on Apple platforms it uses the classic URL loader
    /// (`usesClassicLoadingMode`, where the OS has it), whose tasks carry their
    /// stub scope to the protocol. Note that Foundation on Linux does not show
    /// `httpAdditionalHeaders` to URL protocols, so stubs cannot match on them there.
    ///
    /// - Throws: ``StubInterceptionError/backgroundConfiguration(identifier:)`` when
    ///   `base` is a background configuration: background sessions never consult
    ///   URL protocols, so their requests would reach the network.
    public static func stubbed(from base: URLSessionConfiguration) throws -> URLSessionConfiguration {
        if let identifier = base.identifier {
            throw StubInterceptionError.backgroundConfiguration(identifier: identifier)
        }
        return stubbedCopy(of: base)
    }

    /// A copy of `base`, which is not a background configuration, whose requests
    /// are all answered by stubs.
    private static func stubbedCopy(of base: URLSessionConfiguration) -> URLSessionConfiguration {
        StubInterception.prepare()
        // `copy()` of a configuration is a configuration on every platform.
        let configuration = base.copy() as! URLSessionConfiguration
        configuration.prependStubProtocol()
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// Puts ``StubURLProtocol`` first in `protocolClasses` (once) and, on Apple
    /// platforms, selects the classic URL loader.
    func prependStubProtocol() {
        let others = (protocolClasses ?? []).filter { $0 != StubURLProtocol.self }
        protocolClasses = [StubURLProtocol.self] + others
        #if canImport(ObjectiveC)
        ClassicLoadingMode.select(true, on: self)
        #endif
    }
}

extension URLSession {
    /// A session shared by the whole process whose requests are all answered by stubs.
    ///
    /// It is built from ``Foundation/URLSessionConfiguration/stubbed``. Sharing it
    /// between tests running in parallel is safe: each request is answered by the
    /// scope current where it was resumed.
    public static let stubbed = URLSession(configuration: .stubbed)
}
