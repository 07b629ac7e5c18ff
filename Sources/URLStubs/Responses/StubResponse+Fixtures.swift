#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension StubResponse {
    /// Answers with the contents of the file at `fileURL`, read once when the
    /// response is built.
    ///
    /// The `Content-Type` is chosen from the file's extension (`json`, `txt`, `html`,
    /// `xml`, `png`, `jpg`, `gif`, `pdf`; anything else is
    /// `application/octet-stream`) unless `headers` sets one. A file that cannot be
    /// read is refused, and the scope reports its path and the reason.
    ///
    /// Only `file:` URLs are read. Any other URL (`https:`, `http:`, `data:`, ...)
    /// is refused without being loaded, so a stub never reaches the network: use
    /// ``StubScope/passThrough(_:times:fileID:filePath:line:column:)`` or a
    /// cassette for real traffic.
    public static func fixture(at fileURL: URL, status: Int = 200, headers: [String: String] = [:]) -> StubResponse {
        guard fileURL.isFileURL else {
            return StubResponse(.refused(ResponseMessages.nonFileFixture(fileURL)))
        }
        do {
            let body = try Data(contentsOf: fileURL)
            return http(status: status, headers: headers, body: body, contentType: contentType(forExtension: fileURL.pathExtension))
        } catch {
            return StubResponse(.refused(ResponseMessages.unreadableFixture(fileURL, error: error)))
        }
    }

    /// Answers with the contents of the resource `name` in `bundle`, for example a
    /// test target's `Bundle.module`.
    ///
    /// `name` may include its extension (`"user.json"`). A resource that is missing
    /// is refused, and the scope reports the name and the bundle searched.
    public static func fixture(
        named name: String,
        in bundle: Bundle,
        status: Int = 200,
        headers: [String: String] = [:]
    ) -> StubResponse {
        let file = name as NSString
        let ext = file.pathExtension
        let base = ext.isEmpty ? name : file.deletingPathExtension
        let url = bundle.url(forResource: base, withExtension: ext.isEmpty ? nil : ext)
            ?? bundle.url(forResource: base, withExtension: ext.isEmpty ? nil : ext, subdirectory: "Fixtures")
        guard let url else {
            return StubResponse(.refused(ResponseMessages.missingFixture(named: name, in: bundle)))
        }
        return fixture(at: url, status: status, headers: headers)
    }

    static func contentType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "json": "application/json"
        case "txt", "text": "text/plain; charset=utf-8"
        case "html", "htm": "text/html; charset=utf-8"
        case "xml": "application/xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "pdf": "application/pdf"
        default: "application/octet-stream"
        }
    }
}
