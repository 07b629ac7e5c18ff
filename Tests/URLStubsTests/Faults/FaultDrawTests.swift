#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// The pure parts of seeded decisions: a request's identity, the generator, and
/// latency draws.
@Suite("Seeded draws")
struct FaultDrawTests {
    private func key(_ method: String, _ url: String) -> String {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        return RequestIdentity.key(of: RecordedRequest(urlRequest: request, body: nil, sequenceNumber: 0))
    }

    @Test("a request's identity is its method and normalized URL with query items in a canonical order")
    func identityKey() {
        #expect(key("GET", "https://API.Example.com:443/search?q=swift&a=1&a=0") == "GET https://api.example.com/search?a=0&a=1&q=swift")
        #expect(key("GET", "https://api.example.com/search?a=1&q=swift") == key("GET", "https://api.example.com/search?q=swift&a=1"))
        #expect(key("GET", "https://api.example.com") == "GET https://api.example.com/")
        #expect(key("POST", "https://api.example.com/x") != key("GET", "https://api.example.com/x"))
        #expect(key("GET", "https://api.example.com/x?") != key("GET", "https://api.example.com/x"))
    }

    @Test("two spellings of one URL that match the same stubs are one identity: escapes in either case, an escaped letter, empty query pieces")
    func identityFollowsMatching() {
        #expect(key("GET", "https://api.example.com/a%2fb?q=%2f") == key("GET", "https://api.example.com/a%2Fb?q=%2F"))
        #expect(key("GET", "https://api.example.com/%7Eme?q=%41") == key("GET", "https://api.example.com/~me?q=A"))
        #expect(key("GET", "https://api.example.com/x?a=1&&b=2") == key("GET", "https://api.example.com/x?b=2&a=1"))
        // Items that only a flattened text would confuse stay apart, as in matching.
        #expect(key("GET", "https://api.example.com/x?a=b%3Dc") != key("GET", "https://api.example.com/x?a%3Db=c"))
        #expect(key("GET", "https://api.example.com/x?q=a%26b") == "GET https://api.example.com/x?q=a%26b")
        // One Unicode form: é composed or not is one value to matching.
        // (Its bytes are what is hashed; two strings Swift calls equal may differ in them.)
        #expect(Array(key("GET", "https://api.example.com/x?name=caf%C3%A9").utf8) == Array(key("GET", "https://api.example.com/x?name=cafe%CC%81").utf8))
    }

    @Test("the identity hash and the generator are fixed functions: these values hold in every process, on every toolchain")
    func fixedValues() {
        // FNV-1a of "a" and SplitMix64 from 0, as their authors publish them.
        var fnv = FNV1a()
        fnv.combine("a")
        #expect(fnv.value == 0xAF63_DC4C_8601_EC8C)
        var generator = SplitMix64(state: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        let identity = RequestIdentity(key: "GET https://api.example.com/", occurrence: 0)
        #expect(identity.hash != RequestIdentity(key: "GET https://api.example.com/", occurrence: 1).hash)
        var first = identity.generator(seed: 7, for: .fault)
        var again = identity.generator(seed: 7, for: .fault)
        var otherPurpose = identity.generator(seed: 7, for: .latency)
        var otherSeed = identity.generator(seed: 8, for: .fault)
        let draw = first.next()
        #expect(again.next() == draw)
        #expect(otherPurpose.next() != draw)
        #expect(otherSeed.next() != draw)
    }

    @Test("unit draws lie in 0..<1 and bounded draws below their bound, spread evenly")
    func unitAndBoundedDraws() {
        var generator = SplitMix64(state: 42)
        var buckets = [Int](repeating: 0, count: 10)
        for _ in 0..<100_000 {
            let unit = generator.nextUnit()
            #expect(unit >= 0 && unit < 1)
            buckets[generator.next(below: 10)] += 1
        }
        #expect(buckets.allSatisfy { (9_500...10_500).contains($0) })
    }

    /// `count` draws of `latency`, one per request identity.
    private func draws(_ latency: StubLatency, count: Int) -> [Duration] {
        (0..<count).map { index in
            var generator = RequestIdentity(key: "GET https://api.example.com/\(index)", occurrence: 0).generator(seed: 11, for: .latency)
            return latency.draw(using: &generator)
        }
    }

    @Test("fixed latency is exact, uniform latency stays within its bounds and covers them, log-normal latency centres on its median")
    func latencyDraws() {
        #expect(Set(draws(.fixed(.milliseconds(30)), count: 100)) == [.milliseconds(30)])
        #expect(Set(draws(.zero, count: 10)) == [.zero])
        let uniform = draws(.uniform(.milliseconds(20) ... .milliseconds(40)), count: 10_000)
        #expect(uniform.allSatisfy { (.milliseconds(20) ... .milliseconds(40)).contains($0) })
        #expect(uniform.min()! < .milliseconds(21))
        #expect(uniform.max()! > .milliseconds(39))
        let logNormal = draws(.logNormal(median: .milliseconds(100), sigma: 0.5), count: 10_001).sorted()
        let median = logNormal[5_000]
        #expect(median > .milliseconds(95) && median < .milliseconds(105))
        // With sigma 0.5, one draw in twenty exceeds e^(0.5 × 1.645) ≈ 2.28 times the median.
        let tail = Double(logNormal.filter { $0 > .milliseconds(228) }.count) / 10_001
        #expect(tail > 0.04 && tail < 0.06)
        #expect(Set(draws(.logNormal(median: .milliseconds(50), sigma: 0), count: 100)) == [.milliseconds(50)])
        #expect(draws(.logNormal(median: .milliseconds(1), sigma: 1_000), count: 1_000).allSatisfy { $0 <= .seconds(1) })
    }
}
