/// HTTP method names as URLStubs compares them.
enum HTTPMethod {
    /// `method` uppercased, as patterns and recorded requests hold it: the very
    /// string when it has no lowercase letter (nearly every method is written in
    /// capitals), so that no new string is made for each stub and request.
    static func uppercased(_ method: String) -> String {
        let hasLowercase = method.utf8.contains { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || byte >= 0x80
        }
        return hasLowercase ? method.uppercased() : method
    }
}
