@testable import URLStubs
import Testing

/// How a near miss's text is cut into the report's indented lines: by bytes for
/// speed, and always into exactly the lines a split at each line break character
/// (LF, CR, or CR LF) gives.
@Suite("Message lines", .timeLimit(.minutes(1)))
struct MessageLinesTests {
    @Test("a text is cut into the same non-empty lines as a split at each line break character (LF, CR, CR LF)", arguments: [
        "one line",
        "GET https://api.example.com/a (registered at A.swift:3)\n- path: expected /a, got /b",
        "first\n\nsecond\n",
        "\nleading and trailing\n",
        "a body \"with\r\nCRLF\" inside\n- method: expected POST, got GET",
        "a lone \r carriage return\nnext",
        "naïve 🇫🇷\nflags and accents\n",
        "",
    ])
    func linesMatchACharacterSplit(_ text: String) {
        // None of the texts holds another newline character (VT, FF, NEL, LS, PS),
        // so Swift's own idea of a newline is an independent answer.
        #expect(FailureMessages.lines(of: text) == text.split(whereSeparator: \.isNewline))
    }

    @Test("CR LF, a lone CR and LF each end a line, and empty lines are dropped")
    func everyLineBreakEndsALine() {
        #expect(FailureMessages.lines(of: "a\r\nb\rc\n\nd\r\n") == ["a", "b", "c", "d"])
        #expect(FailureMessages.lines(of: "\r\n\r\n") == [])
    }
}
