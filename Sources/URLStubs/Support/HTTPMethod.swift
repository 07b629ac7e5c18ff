/// HTTP method names as URLStubs compares them.
enum HTTPMethod {
    /// `method` uppercased, as patterns and recorded requests hold it. A method with
    /// no ASCII lowercase letter and no non-ASCII byte (nearly every method, written
    /// in capitals) is the very string, so that no new string is made for each stub
    /// and request; any other is uppercased in full.
    static func uppercased(_ method: String) -> String {
        let mayHaveLowercase = method.utf8.contains { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || byte >= 0x80
        }
        return mayHaveLowercase ? method.uppercased() : method
    }
}
