/// The requests a scope received, with their outcomes, in order: all of them, or only the most recent
/// `limit` (the global scope's log, which lives as long as the process).
///
/// A limited log is a ring: once full, each new request takes the place of the
/// oldest, in constant time, so the log always holds exactly the most recent
/// `limit` requests.
struct ExchangeLog {
    /// How many requests the log keeps at most, or `nil` for all of them.
    let limit: Int?
    /// The requests kept; once a limited log is full, `storage[oldest]` is the
    /// oldest and the others follow it round the ring.
    private var storage: [LoggedExchange] = []
    /// Where the oldest request is once a limited log is full; 0 before.
    private var oldest = 0
    /// How many requests were ever added (more than it keeps, once a limited log is full).
    private(set) var added = 0

    /// How many requests the first allocation of the log has room for.
    static let firstCapacity = 8

    /// Creates an empty log that keeps the most recent `limit` requests (at least
    /// one), or every request when `limit` is `nil`.
    init(limit: Int? = nil) {
        self.limit = limit.map { max(1, $0) }
    }

    /// Adds `request` as the newest, dropping the oldest when the log is full.
    mutating func append(_ request: LoggedExchange) {
        added += 1
        guard let limit, storage.count == limit else {
            if storage.isEmpty {
                // Room for a test's few requests in one allocation, not one per doubling.
                storage.reserveCapacity(min(limit ?? Self.firstCapacity, Self.firstCapacity))
            }
            storage.append(request)
            return
        }
        storage[oldest] = request
        oldest = oldest + 1 == limit ? 0 : oldest + 1
    }

    /// The requests added after the first `count` that the log still keeps, oldest first.
    func added(after count: Int) -> ArraySlice<LoggedExchange> {
        let kept = inOrder
        return kept.suffix(max(0, min(added - count, kept.count)))
    }

    /// The requests kept, oldest first.
    var inOrder: [LoggedExchange] {
        guard oldest > 0 else { return storage }
        return Array(storage[oldest...] + storage[..<oldest])
    }
}
