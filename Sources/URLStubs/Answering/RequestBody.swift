#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Reads the body of the request a URL protocol received.
enum RequestBody {
    /// The request's body: the bytes of its `httpBodyStream`, read once to its end,
    /// or else its `httpBody`; `nil` when it has neither.
    ///
    /// Inside a URL protocol on Apple platforms the body arrives only as a stream
    /// (`httpBody` is nil there); on Linux `data(for:)` keeps `httpBody`.
    static func read(from request: URLRequest) -> Data? {
        if let stream = request.httpBodyStream {
            return drain(stream)
        }
        return request.httpBody
    }

    /// Reads `stream` until `read` returns 0 (the end) or less (an error).
    private static func drain(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 16 * 1_024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
