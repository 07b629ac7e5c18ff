/// The stub that answers a request, with what its pattern captured from the path.
///
/// A struct rather than a tuple: an optional tuple is copied through the runtime's
/// generic tuple witnesses, and matching hands this value on at every step.
struct StubMatch {
    let entry: StubEntry
    let captures: PathCaptures
}
