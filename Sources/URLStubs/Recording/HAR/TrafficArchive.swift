import Foundation

/// A scope's traffic as a HAR 1.2 file, for failure reports: redacted once with
/// ``Redaction/standard``, and able to scrub the report that goes with it.
@_spi(Integration)
public struct TrafficArchive {
    /// The HAR file of the traffic (requests still waiting or cancelled included as
    /// failures), or ``CassetteError/leakedSecret(path:leak:)`` when a secret
    /// survived redaction: a failure report must not publish it either.
    public let har: Result<Data, CassetteError>
    /// The redactor that redacted the traffic, holding every value it removed.
    private let redactor: Redactor?

    /// Redacts `traffic` and builds its HAR file.
    public init(_ traffic: [RecordedExchange], environment: [String: String] = ProcessInfo.processInfo.environment) {
        let entries = traffic.map { exchange in
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
            let redacted = redactor.redact(entries)
            self.redactor = redactor
            let secrets = LeakScan.secrets(removed: redactor.removals, environment: environment)
            if let leak = LeakScan.firstLeak(in: redacted, of: secrets) {
                har = .failure(.leakedSecret(path: "(failure report)", leak: leak))
            } else {
                har = Result { try HARFile(redacted).encoded() }.mapError { .unwritable(path: "(failure report)", reason: $0.localizedDescription) }
            }
        } catch {
            redactor = nil
            har = .failure(error)
        }
    }

    /// `text` (a failure report) with every value the redaction removed from the
    /// traffic replaced by the placeholder.
    public func scrub(_ text: String) -> String {
        redactor?.scrub(text) ?? text
    }
}
