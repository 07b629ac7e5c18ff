/// How a stub's use, when its scope ends, falls short of its expectation.
enum ExpectationShortfall: Equatable {
    /// It was requested (answered or refused for going over its limit) a number
    /// of times its expectation does not allow.
    case requested(Int)
    /// Every request was to be cancelled by its caller, but `answered` of `hits`
    /// got their answer.
    case notCancelled(answered: Int, of: Int)
}

extension StubExpectation {
    /// How a stub with this expectation falls short after `hits` requests it
    /// answered, `violations` it refused for going over its limit (or for being
    /// forbidden) and `cancellations` of its answered requests cancelled by their
    /// callers; `nil` when the expectation is met, or when the stub was refused
    /// (`isRefused`: that is reported on its own).
    func shortfall(hits: Int, violations: Int, cancellations: Int, isRefused: Bool) -> ExpectationShortfall? {
        guard !isRefused else { return nil }
        let requested = hits + violations
        let isMet = requested >= minimum && maximum.map { requested <= $0 } ?? true
        guard isMet else { return .requested(requested) }
        if requiresCancellation, cancellations < hits {
            return .notCancelled(answered: hits - cancellations, of: hits)
        }
        return nil
    }
}
