#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What the hand-rolled baseline answers for a URL: a 200 with a body, or an error.
enum MockAnswer: Sendable {
    /// A 200 response with this body.
    case body(Data)
    /// A failure with this `URLError` code, as the baseline's "unmatched" answer.
    case failure(URLError.Code)

    /// The baseline's whole table, filled once before any request, as a test's
    /// `setUp` would: every URL the URLStubs variants request, with a body of the
    /// same size (1 KiB, or 1 MiB and 10 MiB for the large-body URLs), and the
    /// missing URL answered with an error.
    static let table: [URL: MockAnswer] = {
        var table: [URL: MockAnswer] = [:]
        let body = MockAnswer.body(BenchmarkFixtures.baselineBody)
        table[BenchmarkFixtures.singleURL] = body
        table[BenchmarkFixtures.globalURL] = body
        table[BenchmarkFixtures.sharedURL] = body
        for index in 0..<1_000 {
            table[BenchmarkFixtures.itemURL(index)] = body
        }
        for size in BenchmarkFixtures.largeBodySizes {
            table[BenchmarkFixtures.largeBodyURL(size: size)] = .body(BenchmarkFixtures.body(tag: "baseline", size: size))
        }
        table[BenchmarkFixtures.missingURL] = .failure(.resourceUnavailable)
        return table
    }()

    /// The body the table answers for `url`; `nil` for a URL it fails or lacks.
    static func body(for url: URL) -> Data? {
        guard case let .body(data) = table[url] else { return nil }
        return data
    }
}
