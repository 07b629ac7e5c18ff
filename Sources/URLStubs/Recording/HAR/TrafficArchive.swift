import Foundation

/// A scope's traffic as a HAR 1.2 file, for failure reports.
@_spi(Integration)
public enum TrafficArchive {
    /// The HAR file of `traffic` (requests still waiting or cancelled included as
    /// failures), redacted with ``Redaction/standard``.
    ///
    /// - Throws: ``CassetteError/leakedSecret(path:leak:)`` when a secret survived
    ///   redaction: a failure report must not publish it either.
    public static func har(of traffic: [RecordedExchange], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Data {
        let entries = traffic.map { exchange in
            CassetteEntry(exchange) ?? CassetteEntry(
                method: exchange.request.method,
                url: exchange.request.url.absoluteString,
                requestHeaders: CassetteEntry.fields(exchange.request.headers),
                requestBody: exchange.request.body,
                answer: .failure(code: URLError.Code.cancelled.rawValue, message: exchange.description)
            )
        }
        var redactor = try Redactor(.standard)
        let redacted = redactor.redact(entries)
        let secrets = LeakScan.secrets(removed: redactor.removals, environment: environment)
        if let leak = LeakScan.firstLeak(in: redacted, of: secrets) {
            throw CassetteError.leakedSecret(path: "(failure report)", leak: leak)
        }
        return try HARFile(redacted).encoded()
    }

    /// `text` (a failure report) with every value ``Redaction/standard`` removes
    /// from `traffic` replaced by the placeholder.
    public static func scrub(_ text: String, of traffic: [RecordedExchange]) -> String {
        guard var redactor = try? Redactor(.standard) else { return text }
        _ = redactor.redact(traffic.compactMap(CassetteEntry.init))
        _ = redactor.redact(traffic.map { CassetteEntry(method: $0.request.method, url: $0.request.url.absoluteString, requestHeaders: CassetteEntry.fields($0.request.headers), requestBody: $0.request.body, answer: .failure(code: 0, message: "")) })
        return redactor.scrub(text)
    }
}
