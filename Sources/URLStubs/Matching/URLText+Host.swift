extension URLText {
    /// Why a host given alone (``RequestPattern/host(_:)``) cannot be matched.
    struct HostProblem: Error {
        let reason: String
    }

    /// `host`, given alone, in the form a request's target carries it: lowercased,
    /// in ASCII (an international host in punycode), an IPv6 address in brackets;
    /// or why no request could carry it.
    static func hostCondition(_ host: String) -> Result<String, HostProblem> {
        guard !host.isEmpty else { return .failure(HostProblem(reason: PatternMessages.hostIsEmpty)) }
        if host.contains(where: { "/?#@".contains($0) }) {
            return .failure(HostProblem(reason: PatternMessages.hostIsAURL))
        }
        var text = host[...]
        let colons = host.reduce(0) { $1 == ":" ? $0 + 1 : $0 }
        if colons == 1, !host.hasPrefix("[") {
            return .failure(HostProblem(reason: PatternMessages.hostHasAPort))
        }
        var bracketed = colons > 1 && !host.hasPrefix("[") ? "[" + host + "]" : host
        if host.hasPrefix("["), let close = host.firstIndex(of: "]"), close != host.index(before: host.endIndex) {
            return .failure(HostProblem(reason: PatternMessages.hostHasAPort))
        }
        if bracketed.utf8.contains(where: { $0 >= 0x80 }) {
            switch InternationalHost.ascii(text) {
            case let .success(ascii):
                bracketed = ascii
            case let .failure(.character(character)):
                return .failure(HostProblem(reason: PatternMessages.hostCharacter(character)))
            case let .failure(.labelTooLong(label)):
                return .failure(HostProblem(reason: PatternMessages.hostLabel(label)))
            }
        }
        text = bracketed[...]
        if let bad = text.first(where: { $0.utf8.count != 1 || !isHostCharacter($0.utf8.first!) }) {
            return .failure(HostProblem(reason: PatternMessages.hostCharacter(bad)))
        }
        return .success(lowercased(text).text)
    }
}
