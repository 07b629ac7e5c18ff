@testable import URLStubs
import Testing

/// The character classes URL reading tests each byte against, held to RFC 3986's
/// grammar for all 256 byte values, and the set they are built with.
@Suite("ASCII sets", .timeLimit(.minutes(1)))
struct ASCIISetTests {
    /// RFC 3986 `unreserved`, written out.
    private static let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    /// RFC 3986 `sub-delims`, written out.
    private static let subDelimiters = "!$&'()*+,;="

    /// The bytes of 0...255 for which `isMember` holds.
    private func members(_ isMember: (UInt8) -> Bool) -> Set<UInt8> {
        Set((0...255).map(UInt8.init).filter(isMember))
    }

    @Test("a set holds exactly the bytes it was made of, over all 256 values, and no byte of 128 or more")
    func setHoldsItsBytes() {
        let set = ASCIISet("\u{0}?@A_\u{7F}")
        #expect(members(set.contains) == Set([0, 63, 64, 65, 95, 127]))
        #expect(members(ASCIISet("").contains).isEmpty)
    }

    @Test("a union holds the bytes of both sets")
    func unionHoldsBoth() {
        #expect(members(ASCIISet("ab").union(ASCIISet("b~")).contains) == Set(Array("ab~".utf8)))
    }

    @Test("an inverted set holds exactly the ASCII bytes the set does not")
    func invertedHoldsTheRest() {
        let letters = Set(Array("az".utf8))
        #expect(members(ASCIISet("az").inverted().contains) == Set((0...127).map(UInt8.init)).subtracting(letters))
    }

    @Test("a method is uppercased unless it has no lowercase letter and is all ASCII", arguments: [
        ("GET", "GET"), ("get", "GET"), ("Patch", "PATCH"), ("PROPFIND", "PROPFIND"), ("M-SEARCH", "M-SEARCH"), ("purge", "PURGE"), ("ÄB", "ÄB"), ("äb", "ÄB"),
    ])
    func methodsAreUppercased(_ method: String, _ expected: String) {
        #expect(HTTPMethod.uppercased(method) == expected)
    }

    @Test("a path character is RFC 3986's pchar without %: unreserved, sub-delims, : and @")
    func pathCharacters() {
        #expect(members(URLText.isPathCharacter) == Set(Array((Self.unreserved + Self.subDelimiters + ":@").utf8)))
    }

    @Test("a query character is a path character, / or ?")
    func queryCharacters() {
        #expect(members(URLText.isQueryCharacter) == Set(Array((Self.unreserved + Self.subDelimiters + ":@/?").utf8)))
    }

    @Test("a host character is unreserved, a sub-delim, %, a bracket or :")
    func hostCharacters() {
        #expect(members(URLText.isHostCharacter) == Set(Array((Self.unreserved + Self.subDelimiters + "%[]:").utf8)))
    }

    @Test("a scheme is a letter followed by letters, digits, +, - and .", arguments: [
        ("https", true), ("h", true), ("coap+tcp", true), ("web-cal.v2", true), ("X1", true),
        ("", false), ("1http", false), ("+a", false), ("ht_tp", false), ("ht~tp", false), ("ht tp", false), ("hé", false),
    ])
    func schemes(_ scheme: String, _ isValid: Bool) {
        #expect(URLText.isValidScheme(scheme[...]) == isValid)
    }
}
