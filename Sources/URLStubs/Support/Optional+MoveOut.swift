extension Optional {
    /// The value, leaving `nil` behind: a move, not a copy (the standard library's
    /// `take()` is not in every SDK the package supports).
    mutating func moveOut() -> Wrapped {
        switch consume self {
        case let .some(value):
            self = nil
            return value
        case .none:
            preconditionFailure("moveOut() of nil")
        }
    }
}
