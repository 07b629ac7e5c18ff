#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension RequestPattern {
    /// Checks a condition on a part of the URL, a form field or the exclusion of a
    /// pattern, reporting a difference through `differ`; returns whether the
    /// condition held, or `nil` when an excluded pattern's predicate has no result
    /// in `predicates` yet. The other conditions are checked by `check`, which hands
    /// these over, and a choice of alternatives by ``checkAlternatives(_:_:_:_:_:_:)``.
    ///
    /// A condition that does not hold always reports a difference, also when the
    /// evaluation is not exhaustive: whether a request matches is decided by the
    /// differences reported.
    func checkMore(
        _ condition: Condition,
        _ request: RecordedRequest,
        _ target: RequestTarget?,
        _ predicates: inout PredicateResults,
        _ differ: (RequestMismatch.Aspect, String, String) -> Bool
    ) -> Bool? {
        switch condition {
        case let .scheme(scheme):
            let actual = target?.scheme ?? request.url.scheme?.lowercased() ?? ""
            let holds = actual == scheme
            if !holds {
                _ = differ(.origin, "scheme \(scheme)", actual.isEmpty ? "no scheme" : "scheme \(actual)")
            }
            return holds
        case let .pathSuffix(encoded, display):
            let path = target?.path ?? request.url.path
            let holds = Self.hasSuffix(path[...], encoded)
            if !holds {
                _ = differ(.path, "a path ending in \"\(display)\"", path)
            }
            return holds
        case let .fileExtension(encoded, display):
            let path = target?.path ?? request.url.path
            let segment = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[path.utf8.index(after: $0)...] } ?? path[...]
            let ending = "." + encoded
            let holds = segment.utf8.count > ending.utf8.count && Self.hasSuffix(segment, ending)
            if !holds {
                _ = differ(.path, "file extension .\(display)", path)
            }
            return holds
        case let .urlRegex(regex):
            let url = request.url.absoluteString
            let holds = regex.matches(url)
            if !holds {
                _ = differ(.url, "a URL matching \(regex.source)", url)
            }
            return holds
        case let .formField(name, value):
            return checkFormField(name, value, request, differ)
        case let .not(pattern):
            let excluded = pattern.evaluate(request, exhaustive: false, predicates: &predicates)
            // A difference decides (the excluded pattern does not match); else an
            // unknown predicate leaves it open.
            if excluded.mismatches.isEmpty, excluded.isUndecided {
                return nil
            }
            let holds = !excluded.mismatches.isEmpty
            if !holds {
                _ = differ(.predicate, PatternMessages.notMatching(pattern.description), request.method + " " + request.url.absoluteString)
            }
            return holds
        default:
            preconditionFailure("evaluate and check handle \(condition) themselves")
        }
    }

    private func checkFormField(
        _ name: String,
        _ value: String?,
        _ request: RecordedRequest,
        _ differ: (RequestMismatch.Aspect, String, String) -> Bool
    ) -> Bool {
        let expected = value.map { "form field \(name)=\($0)" } ?? "a form field \(name)"
        switch FormBody.fields(of: request.body, contentType: request.header("Content-Type")) {
        case let .failure(notAForm):
            _ = differ(.body, expected, notAForm.description)
            return false
        case let .success(fields):
            let values = fields.filter { $0.name == name }.map(\.value)
            let holds = value.map { wanted in values.contains { $0 == wanted } } ?? !values.isEmpty
            if !holds {
                let actual = values.isEmpty ? "no \(name) field" : values.map { "\(name)=\($0 ?? "")" }.joined(separator: "&")
                _ = differ(.body, expected, actual)
            }
            return holds
        }
    }

    /// Whether one of `patterns` matches, or `nil` when none does yet but one may,
    /// once its predicates have results in `predicates`; when none does and every difference is
    /// wanted, reports them: one line when each alternative differs in the same
    /// single way (`path: expected /a or /b, got /c`), else each alternative's
    /// differences, numbered.
    func checkAlternatives(
        _ patterns: [RequestPattern],
        _ request: RecordedRequest,
        _ exhaustive: Bool,
        _ predicates: inout PredicateResults,
        _ differ: (RequestMismatch.Aspect, String, String) -> Bool,
        _ captured: inout PathCaptures
    ) -> Bool? {
        var evaluations: [Evaluation] = []
        var isUndecided = false
        for pattern in patterns {
            let evaluation = pattern.evaluate(request, exhaustive: exhaustive, predicates: &predicates)
            if evaluation.isMatch {
                captured.merge(evaluation.captures, inPath: request.pathAsMatched)
                return true
            }
            if evaluation.mismatches.isEmpty {
                isUndecided = true // Matches unless its unknown predicate says no.
            }
            evaluations.append(evaluation)
        }
        if isUndecided {
            return nil
        }
        guard exhaustive else {
            // Matching needs one difference to know the request is not a match.
            let first = evaluations[0].mismatches[0]
            _ = differ(first.aspect, first.expected, first.actual)
            return false
        }
        let aspects = evaluations.map { $0.mismatches.count == 1 ? $0.mismatches[0].aspect : nil }
        if let aspect = aspects[0], aspects.allSatisfy({ $0 == aspect }) {
            let expected = Self.distinct(evaluations.map { $0.mismatches[0].expected })
            let actual = Self.distinct(evaluations.map { $0.mismatches[0].actual })
            _ = differ(aspect, expected.joined(separator: " or "), actual.joined(separator: " or "))
        } else {
            for (number, (pattern, evaluation)) in zip(patterns, evaluations).enumerated() {
                for mismatch in evaluation.mismatches {
                    let expected = PatternMessages.inAlternative(mismatch.expected, number: number + 1, of: pattern.description)
                    _ = differ(mismatch.aspect, expected, mismatch.actual)
                }
            }
        }
        return false
    }

    /// Whether the bytes of `text` end with those of `suffix`.
    private static func hasSuffix(_ text: Substring, _ suffix: String) -> Bool {
        text.utf8.count >= suffix.utf8.count && text.utf8.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
    }

    /// `texts` without repetitions, in order.
    private static func distinct(_ texts: [String]) -> [String] {
        var seen = Set<String>()
        return texts.filter { seen.insert($0).inserted }
    }
}
