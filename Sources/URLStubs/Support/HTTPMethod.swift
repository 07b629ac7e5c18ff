/// HTTP method names as URLStubs compares them.
enum HTTPMethod {
    /// `method` uppercased, as patterns and recorded requests hold it. A method with
    /// no ASCII lowercase letter and no non-ASCII byte (nearly every method, written
    /// in capitals) is the very string, so that no new string is made for each stub
    /// and request; any other is uppercased in full.
    static func uppercased(_ method: String) -> String {
        // The usual methods compared whole, the others over their bytes in one
        // block: in a debug build (where tests run) a loop over a string's `utf8`
        // is a generic call for each byte.
        if method == "GET" || method == "POST" || method == "PUT" || method == "DELETE" || method == "PATCH" || method == "HEAD" {
            return method
        }
        return URLText.allBytes(of: Substring(method), in: capitalsAndSymbols) ? method : method.uppercased()
    }

    /// The ASCII bytes a method needs no uppercasing for: every one but the
    /// lowercase letters (a byte of 128 or more is in no ``ASCIISet``).
    private static let capitalsAndSymbols = URLText.lowercaseLetters.inverted()
}
