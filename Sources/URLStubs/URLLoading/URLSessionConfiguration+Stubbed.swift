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
        stubbed(from: .ephemeral)
    }

    /// A copy of `base` whose requests are all answered by stubs.
    ///
    /// Use it to keep a configuration's timeouts or other settings. The copy's
    /// `protocolClasses` start with ``StubURLProtocol`` and its `urlCache` is `nil`.
    /// Note that Foundation on Linux does not show `httpAdditionalHeaders` to URL
    /// protocols, so stubs cannot match on them there.
    public static func stubbed(from base: URLSessionConfiguration) -> URLSessionConfiguration {
        StubInterception.prepare()
        // `copy()` of a configuration is a configuration on every platform.
        let configuration = base.copy() as! URLSessionConfiguration
        let others = (configuration.protocolClasses ?? []).filter { $0 != StubURLProtocol.self }
        configuration.protocolClasses = [StubURLProtocol.self] + others
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
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
