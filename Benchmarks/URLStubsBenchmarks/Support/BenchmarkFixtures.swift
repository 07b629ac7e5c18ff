#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// The URLs, bodies and sessions every measurement shares.
///
/// The host is under `.invalid`, a top-level domain that never resolves, so a
/// request that escaped both the stubs and the baseline could not reach a server.
enum BenchmarkFixtures {
    /// The size of every response body but the large ones, baseline and URLStubs alike.
    static let bodySize = 1024
    /// The sizes of the large bodies of the body-size rows: 1 MiB and 10 MiB.
    static let largeBodySizes = [1 << 20, 10 << 20]
    /// The origin of every URL.
    static let origin = "https://bench.invalid"
    /// The URL of the single-stub variants.
    static let singleURL = URL(string: origin + "/single")!
    /// The URL the global scope answers.
    static let globalURL = URL(string: origin + "/global")!
    /// A URL no stub answers.
    static let missingURL = URL(string: origin + "/missing")!
    /// The URL every throughput scope stubs, each with its own body.
    static let sharedURL = URL(string: origin + "/shared")!

    /// The URL answered with a large body of `size` bytes.
    static func largeBodyURL(size: Int) -> URL {
        URL(string: origin + "/large/\(size)")!
    }

    /// The URL of item `index`, for scopes holding many stubs.
    static func itemURL(_ index: Int) -> URL {
        URL(string: origin + "/items/\(index)")!
    }

    /// The URL of the `index`-th stub of a parked scope: the first is ``singleURL``,
    /// so that parked scopes compete for the measured request.
    static func parkedURL(_ index: Int) -> URL {
        index == 0 ? singleURL : URL(string: origin + "/parked/\(index)")!
    }

    /// A body of exactly `size` bytes (``bodySize`` by default) that starts with
    /// `tag`, so that bodies of different scopes differ while their sizes stay equal.
    static func body(tag: String, size: Int = bodySize) -> Data {
        var bytes = Array(tag.utf8.prefix(size))
        bytes += repeatElement(UInt8(ascii: "."), count: size - bytes.count)
        return Data(bytes)
    }

    /// The body every baseline answer carries.
    static let baselineBody = body(tag: "baseline")

    /// A GET request for `url`.
    static func request(_ url: URL) -> URLRequest {
        URLRequest(url: url)
    }

    /// The session every URLStubs variant uses: built from `.stubbed`.
    static let stubbedSession = URLSession(configuration: .stubbed)

    /// The URLStubs session of the delegated rows: `.stubbed`, with a session delegate.
    static let delegatedStubbedSession = URLSession(configuration: .stubbed, delegate: AppSessionDelegate(), delegateQueue: nil)

    /// The baseline's session: the hand-rolled dictionary protocol's.
    static let baselineSession = session(answeredBy: DictionaryMockURLProtocol.self)

    /// The baseline's session of the delegated rows: the dictionary protocol's, with
    /// a session delegate.
    static let delegatedBaselineSession = session(answeredBy: DictionaryMockURLProtocol.self, delegate: AppSessionDelegate())

    /// A session of a hand-rolled protocol: `.stubbed` with `protocolClass` in place
    /// of `StubURLProtocol`, so that everything else (ephemeral, `urlCache = nil`,
    /// the cache policy, the other protocol classes) is the same as URLStubs'; with
    /// `delegate` as its delegate, if given.
    static func session(answeredBy protocolClass: URLProtocol.Type, delegate: (any URLSessionDelegate)? = nil) -> URLSession {
        let configuration = URLSessionConfiguration.stubbed
        let others = (configuration.protocolClasses ?? []).filter { ObjectIdentifier($0) != ObjectIdentifier(StubURLProtocol.self) }
        configuration.protocolClasses = [protocolClass] + others
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }
}
