/// A stub that came close to matching an unmatched request, with what differed.
public struct NearMiss: Sendable, Hashable {
    /// The stub's pattern in words.
    public let stub: String
    /// Where the stub was registered.
    public let location: StubSourceLocation
    /// The scope the stub belongs to.
    public let scope: StubScope
    /// Every way in which the request differed from the stub's pattern.
    public let mismatches: [RequestMismatch]
}

extension NearMiss: CustomStringConvertible {
    /// The near miss written as its stub, location and differences, one per line.
    ///
    /// A stub that matches the request in everything but the state of its
    /// scenario says so: `- matches, but scenario "cart" is in "empty", not "filled"`.
    public var description: String {
        var text = ""
        write(into: &text, separator: "\n")
        return text
    }

    /// Appends the near miss, as ``description`` writes it, to `text`, with
    /// `separator` in place of each line break between its lines: its stub and
    /// where it was registered, then each difference. A line may hold line breaks
    /// of its own (a body's text, see ``hasLineBreaks``).
    func write(into text: inout String, separator: String) {
        text += stub
        text += " (registered at "
        location.write(into: &text)
        text += ")"
        let onlyScenario = mismatches.allSatisfy { $0.aspect == .scenario }
        for mismatch in mismatches {
            text += separator
            if onlyScenario {
                text += "- matches, but scenario "
                text += ScenarioMessages.state(of: mismatch)
            } else {
                text += "- "
                mismatch.write(into: &text)
            }
        }
    }

    /// Whether a line of the near miss holds line breaks of its own: a stub or a
    /// difference that quotes a body's text (or, by hand, a file ID with one).
    var hasLineBreaks: Bool {
        func hasBreak(_ text: String) -> Bool {
            let isBreak = { (byte: UInt8) in byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
            // Over the bytes where they are contiguous (native and small strings, so
            // nearly always): a walk of the UTF-8 view steps through its indices.
            return text.utf8.withContiguousStorageIfAvailable { $0.contains(where: isBreak) } ?? text.utf8.contains(where: isBreak)
        }
        return hasBreak(stub) || hasBreak(location.fileID) || mismatches.contains { mismatch in
            hasBreak(mismatch.expected) || hasBreak(mismatch.actual) || mismatch.scenario.map(hasBreak) == true
        }
    }
}

extension NearMiss {
    /// A stub compared with an unmatched request, before it is written out: only
    /// the nearest few become ``NearMiss``es, so that a scope of many stubs writes
    /// out the patterns of those few, not of every stub.
    struct Candidate<Stub> {
        /// The stub, written out only if it is among the nearest.
        let stub: Stub
        /// The scope the stub belongs to.
        let scope: StubScope
        /// The stub's place among all stubs as they were registered: among
        /// equals, the newest is nearer.
        let order: UInt64
        /// Every way in which the request differed from the stub's pattern.
        let mismatches: [RequestMismatch]
        /// How far the request was from the stub: a wrong origin or path counts
        /// more than a wrong method, header, query or body. A scenario in another
        /// state counts nothing: the request is what the stub asks for, only at
        /// another time, so a stub that differs in nothing else is the nearest.
        let distance: Int
        /// Whether the stub shares the request's origin or its path: a stub that
        /// differs in both is not near, it is unrelated.
        let isNear: Bool

        init(stub: Stub, scope: StubScope, order: UInt64, mismatches: [RequestMismatch]) {
            self.stub = stub
            self.scope = scope
            self.order = order
            self.mismatches = mismatches
            var distance = 0
            var differsInOrigin = false
            var differsInPath = false
            for mismatch in mismatches {
                switch mismatch.aspect {
                case .origin:
                    distance += 3
                    differsInOrigin = true
                case .path:
                    distance += 3
                    differsInPath = true
                case .url: distance += 3
                case .method: distance += 2
                case .query, .header, .body, .predicate, .pattern: distance += 1
                case .scenario: break
                }
            }
            self.distance = distance
            isNear = !(differsInOrigin && differsInPath)
        }

        /// Whether the candidate is nearer than `other`: a smaller distance, then
        /// fewer differences, then registered later.
        func isNearer(than other: Self) -> Bool {
            if distance != other.distance {
                return distance < other.distance
            }
            if mismatches.count != other.mismatches.count {
                return mismatches.count < other.mismatches.count
            }
            return order > other.order
        }
    }

    /// The `count` nearest of `candidates`, nearest first.
    ///
    /// Only near candidates are listed; when there are none, the stubs of the
    /// request's own scope (if it has one) are listed instead, so the report still
    /// shows what the scope offered.
    static func nearest<Stub>(_ candidates: [Candidate<Stub>], ownScope: StubScope?, count: Int = 3) -> [Candidate<Stub>] {
        var pool = candidates.filter(\.isNear)
        if pool.isEmpty, let ownScope {
            pool = candidates.filter { $0.scope == ownScope }
        }
        if pool.count > 1 {
            pool.sort { $0.isNearer(than: $1) }
        }
        return Array(pool.prefix(count))
    }
}
