/// HTTP method names as URLStubs compares them.
enum HTTPMethod {
    /// `method` uppercased, as patterns and recorded requests hold it. A method with
    /// no ASCII lowercase letter and no non-ASCII byte (nearly every method, written
    /// in capitals) is the very string, so that no new string is made for each stub
    /// and request; any other is uppercased in full.
    static func uppercased(_ method: String) -> String {
        // A loop with the bounds in locals: in a debug build (where tests run) a
        // generic search or `UInt8(ascii:)` is a call for each byte.
        let lowerA = UInt8(ascii: "a"), lowerZ = UInt8(ascii: "z")
        for byte in method.utf8 where (byte >= lowerA && byte <= lowerZ) || byte >= 0x80 {
            return method.uppercased()
        }
        return method
    }
}
