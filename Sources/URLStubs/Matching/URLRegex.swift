/// A regular expression compiled once from its text, searched in URLs.
///
/// `Regex` is not `Sendable`, so the compiled expression is kept in a ``Locked``
/// value and used only while its lock is held (matching runs inside the
/// registry's critical section anyway, so the lock is never contended).
struct URLRegex: Sendable {
    /// The expression as the user wrote it.
    let source: String
    private let compiled: Locked<Regex<AnyRegexOutput>>

    /// Compiles `source`, throwing a sentence that names it and says what is wrong.
    init(_ source: String) throws(PatternError) {
        guard !source.isEmpty else {
            throw PatternError(PatternMessages.emptyRegex)
        }
        do {
            compiled = Locked(try Regex<AnyRegexOutput>(source))
        } catch {
            throw PatternError(PatternMessages.invalidRegex(source, reason: "\(error)"))
        }
        self.source = source
    }

    /// Whether the expression matches somewhere in `text`.
    func matches(_ text: String) -> Bool {
        compiled.withLock { regex in
            // Only custom regex components can throw; the expressions compiled from
            // text here have none, so a throw counts as no match.
            (try? regex.firstMatch(in: text)) != nil
        }
    }
}
