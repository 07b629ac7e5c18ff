import Foundation

/// A scope's exchanges as a HAR 1.2 file, for failure reports: redacted once with
/// ``Redaction/standard``, scanned like a cassette, and able to scrub the report
/// and console messages that go with it.
@_spi(Integration)
public struct ExchangeArchive {
    /// The HAR file of the exchanges (requests still waiting or cancelled included as
    /// failures), or ``CassetteError/leakedSecret(path:leak:)`` when a secret
    /// survived redaction: a failure report must not publish it either. Encoded
    /// when read: scrubbing a message needs only the secrets.
    public var har: Result<Data, CassetteError> {
        switch redaction {
        case let .failure(error):
            return .failure(error)
        case let .success(redacted):
            if let leak = LeakScan.firstLeak(in: redacted, of: secrets) {
                return .failure(.leakedSecret(path: "(failure report)", leak: leak))
            }
            return Result { try HARFile(redacted).encoded() }.mapError { .unwritable(path: "(failure report)", reason: $0.localizedDescription) }
        }
    }
    /// The entries of the exchanges, redacted, or why they could not be.
    private let redaction: Result<[CassetteEntry], CassetteError>
    /// Every value the redaction removed, and the secret environment values.
    private let secrets: [LeakScan.Secret]
    /// The same, ready to search text.
    private let search: SecretSearch

    /// Redacts `exchanges`, keeping what its HAR file is made of.
    public init(_ exchanges: [RecordedExchange], environment: [String: String] = ProcessInfo.processInfo.environment) {
        let entries = exchanges.map { exchange in
            CassetteEntry(exchange) ?? CassetteEntry(
                method: exchange.request.method,
                url: exchange.request.url.absoluteString,
                requestHeaders: CassetteEntry.fields(exchange.request.headers),
                requestBody: exchange.request.body,
                answer: .failure(code: URLError.Code.cancelled.rawValue, message: exchange.description)
            )
        }
        do {
            var redactor = try Redactor(.standard)
            redaction = .success(redactor.redact(entries))
            secrets = LeakScan.secrets(removed: redactor.removals, environment: environment)
        } catch {
            redaction = .failure(error)
            secrets = LeakScan.secrets(removed: [], environment: environment)
        }
        search = SecretSearch(secrets)
    }

    /// `text` (a failure report, a console message) with every secret the exchanges
    /// held replaced by the placeholder: each spelling that can be cut out, and
    /// the start of one cut short by `…`; a line in which a secret is still found
    /// in another spelling is replaced by words saying it was withheld.
    public func scrub(_ text: String) -> String {
        guard !search.isEmpty else { return text }
        let masked = search.mask(text, with: Redaction.placeholder)
        return masked.components(separatedBy: "\n").map { line in
            let line = search.maskCutShort(line, with: Redaction.placeholder)
            return search.firstSecret(in: line) == nil ? line : RecordingMessages.withheldLine
        }.joined(separator: "\n")
    }

    /// `problems` with their messages scrubbed (see ``scrub(_:)``).
    public func scrub(_ problems: [StubProblem]) -> [StubProblem] {
        guard !search.isEmpty else { return problems }
        return problems.map { StubProblem(kind: $0.kind, message: scrub($0.message), location: $0.location, severity: $0.severity) }
    }
}
