#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A request a stub answered that is also being sent to the real server, to find
/// where the stub and reality drifted apart.
struct LiveCheck: Sendable {
    /// The environment variable that turns the check on for every scope of a run.
    static let environmentVariable = "URLSTUBS_VERIFY_LIVE"

    /// Whether the environment turns the check on.
    static let isOnForRun: Bool = (try? setting(in: ProcessInfo.processInfo.environment).get()) ?? false

    /// The problem every scope reports when the environment sets the variable to a
    /// value that is neither on nor off (the check stays off); empty otherwise.
    static let problemsForRun = problems(in: ProcessInfo.processInfo.environment)

    /// The problem a scope reports for the setting in `environment`: none, or the
    /// value that is neither on nor off.
    static func problems(in environment: [String: String]) -> [StubProblem] {
        guard case let .failure(error) = setting(in: environment) else { return [] }
        return [StubProblem(kind: .cassette(error), message: error.description, location: nil)]
    }

    /// Whether `environment` turns the check on: `1`, `true`, `yes` or `on` (any
    /// case) do; unset, empty, `0`, `false`, `no` or `off` do not; anything else
    /// is an error.
    static func setting(in environment: [String: String]) -> Result<Bool, CassetteError> {
        let value = environment[environmentVariable] ?? ""
        switch value.lowercased() {
        case "1", "true", "yes", "on": return .success(true)
        case "", "0", "false", "no", "off": return .success(false)
        default: return .failure(.invalidEnvironment(variable: environmentVariable, value: value, reason: "it must be 1, true, yes or on to check stubs against the real server, or 0, false, no or off (or unset) not to"))
        }
    }

    let exchange: LoggedExchange
    /// The stub that answered, as reports name it.
    let stub: String
    /// The stub that answered, as `scope.stub(...)` returned it.
    let handle: Stub
    let location: StubSourceLocation
    /// The live request, sent by its own task.
    let live: Task<LiveRequest.Result, Never>

    /// The differences between the stubbed answer `stubbed` and the live one.
    static func differences(stubbed: RecordedExchange.Outcome, live: RecordedExchange.Outcome) -> [String] {
        switch (stubbed, live) {
        case let (.response(stubStatus, stubHeaders, stubBody), .response(liveStatus, liveHeaders, liveBody)):
            var differences: [String] = []
            if stubStatus != liveStatus {
                differences.append(DriftMessages.status(stub: stubStatus, server: liveStatus))
            }
            let stubType = mediaType(stubHeaders)
            let liveType = mediaType(liveHeaders)
            if stubType != liveType {
                differences.append(DriftMessages.contentType(stub: stubType, server: liveType))
            }
            if let stubShape = JSONShape(stubBody), let liveShape = JSONShape(liveBody) {
                differences += stubShape.differences(from: liveShape)
            }
            return differences
        case let (.response(status, _, _), .failure(error)):
            return [DriftMessages.serverFailed(stubStatus: status, error: error.localizedDescription)]
        default:
            return []
        }
    }

    /// The media type of a `Content-Type` field, lowercased, without parameters.
    private static func mediaType(_ headers: [String: String]) -> String? {
        let value = headers.first { $0.key.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value
        return value.map { String($0.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased() }
    }
}
