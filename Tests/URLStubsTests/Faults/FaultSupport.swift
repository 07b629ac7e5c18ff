#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// Whether the tests choose their scopes' seeds: `URLSTUBS_SEED` overrides every
/// `seed:` argument (that is its purpose), so tests that compare what chosen seeds
/// decide run only without it.
let seedsAreChosenByTests = ProcessInfo.processInfo.environment[FaultSeed.environmentVariable] == nil

/// Whether `URLSTUBS_SEED` is unset or a seed: an unreadable one is a problem of
/// every seeded scope (that is its purpose), so tests that count a scope's problems
/// run only without one.
let environmentSeedIsReadable: Bool = {
    if case .invalid = FaultSeed.environment {
        return false
    }
    return true
}()

/// What a request ended with, written short for comparing whole runs: `200`,
/// `429 Retry-After 1`, `URLError -1001`.
func outcome(of url: String) async -> String {
    do {
        let (_, response) = try await URLSession.stubbed.data(from: URL(string: url)!)
        let http = response as? HTTPURLResponse
        let status = HTTPURLResponse.status(of: response)
        if let retryAfter = http?.value(forHTTPHeaderField: "Retry-After") {
            return "\(status) Retry-After \(retryAfter)"
        }
        return "\(status)"
    } catch let error as URLError {
        return "URLError \(error.code.rawValue)"
    } catch {
        return "\(error)"
    }
}

/// Runs `body` in a scope and returns the messages of the problems it ended with.
func problemMessages(_ body: (StubScope) async throws -> Void) async throws -> [String] {
    do {
        try await withStubScope { try await body($0) }
        return []
    } catch let error as StubVerificationError {
        return error.problems.map(\.message)
    }
}

/// The position `shuffleResponseOrder` gives the first GET of `url` in a scope
/// seeded with `seed`, out of `positions`.
func orderPosition(of url: String, seed: UInt64, positions: Int) -> Int {
    let rule = ResponseOrderRule(
        pattern: .anyRequest,
        spacing: .milliseconds(1),
        positions: positions,
        location: StubSourceLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
    )
    return rule.position(of: RequestIdentity(key: "GET " + url, occurrence: 0), seed: seed)
}
