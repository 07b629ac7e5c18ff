#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The error `withStubScope` throws when its scope ends with problems: unmatched
/// requests, unmet expectations or stubs that could not be used.
///
/// Each problem carries a message and the source location it concerns. When the
/// body of `withStubScope` threw as well, the error carries what it threw
/// (``bodyError``), and its description says both. A seeded scope whose body
/// threw, with no problem, throws one too, with no problem: its description names
/// the seed and how to replay it.
public struct StubVerificationError: Error, Sendable {
    /// The scope that ended.
    public let scope: StubScope
    /// The scope written for messages: `scope #3 "checkout" (opened at File.swift:12)`,
    /// with its name and where it was opened when known.
    public let scopeTitle: String
    /// Every problem, in the order it happened.
    public let problems: [StubProblem]
    /// The error the body of `withStubScope` threw, or `nil` when it returned.
    public internal(set) var bodyError: (any Error)? = nil
    /// The seed lines of a seeded scope with no problem (its problems end with them
    /// otherwise), or `nil`.
    var seedNote: String? = nil
}

extension StubVerificationError: CustomStringConvertible {
    /// Every problem, numbered, under a line naming the scope.
    public var description: String {
        if let bodyError, problems.isEmpty {
            return ScopeMessages.bodyThrew(scope: scopeTitle, error: bodyError, seedNote: seedNote)
        }
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        var lines = [bodyError.map { ScopeMessages.problemsAfterBodyThrew(scope: scopeTitle, count: count, error: $0) } ?? "URLStubs: \(scopeTitle) ended with \(count):"]
        for (index, problem) in problems.enumerated() {
            let body = problem.message.split(separator: "\n", omittingEmptySubsequences: false)
            var first = body.first.map(String.init) ?? ""
            switch problem.kind {
            case .unmatchedRequest, .abandonedRequest, .cassette, .drift, .backgroundConfiguration:
                break
            case .unmetExpectation, .invalidStub:
                if let location = problem.location {
                    first += " (registered at \(location))"
                }
            case .invalidScenario:
                if let location = problem.location {
                    first += " (at \(location))"
                }
            case .invalidFaults:
                if let location = problem.location {
                    first += " (called at \(location))"
                }
            }
            if problem.isWarning {
                first = "(warning) " + first
            }
            lines.append("\(index + 1). " + first)
            lines += body.dropFirst().map { "   " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}

extension StubVerificationError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? {
        description
    }
}
