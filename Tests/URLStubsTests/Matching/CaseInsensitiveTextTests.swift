import Foundation
import Testing
@testable import URLStubs

/// The byte-wise case-insensitive comparison header names and origins use agrees
/// with Foundation's, which it skips for ASCII text.
@Suite("Case-insensitive text")
struct CaseInsensitiveTextTests {
    @Test("equalsIgnoringCase agrees with caseInsensitiveCompare", arguments: [
        ("Content-Type", "content-type"),
        ("CONTENT-LENGTH", "Content-Length"),
        ("Content-Type", "Content-Typf"),
        ("Content-Type", "Content-Typ"),
        ("X-[", "X-{"), // Differ by 0x20 but are not letters.
        ("@", "`"),
        ("", ""),
        ("Straße", "STRASSE"),
        ("Émile", "émile"),
        ("K", "\u{212A}"), // Kelvin sign folds to k.
        ("é-A", "é-B"),
        ("éa", "ÉA"),
        ("X-User-ID", "Content-Type"), // Lengths differ, both ASCII.
        ("ﬀ", "FF"), // A ligature folds to two letters: lengths differ, Foundation decides.
    ])
    func agreesWithFoundation(_ pair: (String, String)) {
        let (mine, theirs) = pair
        #expect(mine.equalsIgnoringCase(theirs) == (mine.caseInsensitiveCompare(theirs) == .orderedSame))
        #expect(theirs.equalsIgnoringCase(mine) == (theirs.caseInsensitiveCompare(mine) == .orderedSame))
    }
}
