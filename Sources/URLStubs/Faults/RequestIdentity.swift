/// What makes a request the same request from one run to the next, for seeded
/// decisions: its method, its URL, and how many identical requests came before it
/// in the scope.
///
/// The URL is normalized as matching normalizes it (lowercase scheme and host, no
/// default port, `/` for an empty path, path escapes in normal form) and its query
/// items are decoded and put in a canonical order, so that `?b=2&a=1` and `?a=1&b=2`
/// are the same request, and so are `?q=%2f` and `?q=%2F`. Nothing else
/// enters: not the time, not the order of other requests, not the headers or the
/// body, so parallel interleavings of different requests never change a decision.
struct RequestIdentity {
    /// Why a decision is drawn; each reason draws from a stream of its own, so that
    /// changing one setting (say, the rate) leaves the others' decisions as they were.
    enum Purpose: UInt8 {
        /// Whether the request fails.
        case fault = 1
        /// Which of the faults it fails with.
        case choice = 2
        /// How much latency it gets.
        case latency = 3
        /// Its position in the shuffled response order.
        case order = 4
    }

    /// The hash of the method, the canonical URL and the count of identical
    /// requests before it.
    let hash: UInt64

    /// The identity of the request whose ``key(of:)`` is `key`, the `occurrence`-th
    /// (from 0) identical request of its scope.
    init(key: String, occurrence: Int) {
        var hasher = FNV1a()
        hasher.combine(key)
        hasher.combine(UInt8(0))
        hasher.combine(UInt64(occurrence))
        hash = hasher.value
    }

    /// The generator of the decisions of `purpose` for this request under `seed`.
    func generator(seed: UInt64, for purpose: Purpose) -> SplitMix64 {
        var hasher = FNV1a()
        hasher.combine(seed)
        hasher.combine(hash)
        hasher.combine(purpose.rawValue)
        return SplitMix64(state: hasher.value)
    }

    /// The method and canonical URL of `request`: `GET https://api.example.com/search?a=1&b=2`.
    static func key(of request: RecordedRequest) -> String {
        guard let target = request.target else {
            return request.method + " " + request.url.absoluteString
        }
        var key = request.method + " " + target.routeKey
        if let items = target.queryItems {
            // Decoded, as matching compares them: `?q=%2f` is `?q=%2F`, and `?a=1&&b=2` is `?a=1&b=2`;
            // in one Unicode form, as strings compare (`café` composed or not).
            key += "?" + RequestPattern.queryText(QueryItem.canonicallyOrdered(items)).precomposedStringWithCanonicalMapping
        }
        return key
    }
}
