/// HTTP method names as URLStubs compares them.
enum HTTPMethod {
    /// `method` uppercased, as patterns and recorded requests hold it. A method with
    /// no ASCII lowercase letter and no non-ASCII byte (nearly every method, written
    /// in capitals) is the very string, so that no new string is made for each stub
    /// and request; any other is uppercased in full.
    static func uppercased(_ method: String) -> String {
        // The usual methods compared whole, the others byte by byte: in a debug
        // build (where tests run) a loop over a string's bytes is generic code.
        if method == "GET" || method == "POST" || method == "PUT" || method == "DELETE" || method == "PATCH" || method == "HEAD" {
            return method
        }
        let lowerA = UInt8(ascii: "a"), lowerZ = UInt8(ascii: "z")
        for byte in method.utf8 where (byte >= lowerA && byte <= lowerZ) || byte >= 0x80 {
            return method.uppercased()
        }
        return method
    }
}
