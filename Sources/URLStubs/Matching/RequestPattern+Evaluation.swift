#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension RequestPattern {
    /// The outcome of comparing a request with a pattern.
    struct Evaluation {
        /// What differed; empty when the request matches.
        var mismatches: [RequestMismatch] = []
        /// What the pattern's templates captured from the path.
        var captures = PathCaptures.none
        /// Whether a predicate's result was not known (see ``PredicateResults``):
        /// the pattern is then taken as not matching, for this round only.
        var isUndecided = false

        var isMatch: Bool { mismatches.isEmpty && !isUndecided }
    }

    /// Compares `request` with the pattern.
    ///
    /// With `exhaustive == false` the comparison stops at the first difference, which
    /// is all that matching needs; near-miss reports ask for every difference.
    ///
    /// With `skippingRoute`, the method, origin and path are taken as matching:
    /// the caller found the stub under the request's own exact-index key.
    ///
    /// Predicates run as they are met; under the registry's lock, use
    /// ``evaluate(_:exhaustive:skippingRoute:predicates:)``, which looks them up.
    func evaluate(_ request: RecordedRequest, exhaustive: Bool, skippingRoute: Bool = false) -> Evaluation {
        var predicates = PredicateResults.running
        return evaluate(request, exhaustive: exhaustive, skippingRoute: skippingRoute, predicates: &predicates)
    }

    /// Compares `request` with the pattern, taking the results of its predicates
    /// from `predicates` (a predicate not found there leaves the evaluation
    /// undecided, and is listed as needed).
    func evaluate(_ request: RecordedRequest, exhaustive: Bool, skippingRoute: Bool = false, predicates: inout PredicateResults) -> Evaluation {
        var result = Evaluation()
        func differ(_ aspect: RequestMismatch.Aspect, _ expected: String, _ actual: String) -> Bool {
            result.mismatches.append(RequestMismatch(aspect: aspect, expected: expected, actual: actual))
            return !exhaustive
        }
        if let problem {
            _ = differ(.pattern, "a valid pattern", problem)
            return result
        }
        // Matching stops at the first difference of method, origin or path without
        // writing it out (it compares many stubs that differ there); a near-miss
        // report writes out each.
        func stop(_ aspect: RequestMismatch.Aspect) -> Evaluation {
            result.mismatches.append(RequestMismatch(aspect: aspect, expected: "", actual: ""))
            return result
        }
        if !skippingRoute, let method, method != request.method {
            guard exhaustive else { return stop(.method) }
            _ = differ(.method, method, request.method)
        }
        if let url {
            if !skippingRoute, !exhaustive, let route = url.routeKey {
                // A route key is the origin and the literal path: equal, both are the
                // request's (what the exact index relies on), and nothing is
                // captured; else which of the two differs is all matching needs.
                if route != request.target?.routeKey {
                    return stop(url.hasOrigin(of: request.target) ? .path : .origin)
                }
            } else if !skippingRoute {
                // Compared without the pattern's origin object, which a literal
                // pattern does not keep: a near-miss report compares every stub.
                if url.namesOrigin, !url.hasOrigin(of: request.target) {
                    guard exhaustive else { return stop(.origin) }
                    // Texts are built only for the mismatch: a match compares fields.
                    let actual = request.target.map { Self.originText($0) } ?? request.url.absoluteString
                    _ = differ(.origin, url.originText ?? "", actual)
                }
                let path = request.pathAsMatched
                if let captures = PathCaptures(matching: url, path: path) {
                    result.captures = captures
                } else {
                    guard exhaustive else { return stop(.path) }
                    _ = differ(.path, Self.pathText(url), path)
                }
            }
            // A pattern without a query matches any: the request's items are decoded only when compared.
            if url.query != nil, !url.queryMatches(request.target?.queryItems) {
                let expected = Self.queryText(url.query ?? []).nonEmpty ?? "no query"
                if differ(.query, expected, Self.queryText(request.target?.queryItems ?? []).nonEmpty ?? "no query") {
                    return result
                }
            }
        }
        for condition in conditions {
            let holds: Bool?
            if case let .alternatives(patterns) = condition {
                // The parameters of the alternative that matched, kept apart from
                // `result`, which `differ` changes while they are collected.
                var captured = PathCaptures.none
                holds = checkAlternatives(patterns, request, exhaustive, &predicates, differ, &captured)
                result.captures.merge(captured, inPath: request.pathAsMatched)
            } else if case .predicate = condition {
                // A predicate reads the path parameters its own pattern captured,
                // not those a logged request kept from the stub that answered it.
                holds = check(condition, request.capturing(result.captures), request.target, &predicates, differ)
            } else {
                holds = check(condition, request, request.target, &predicates, differ)
            }
            guard let holds else {
                result.isUndecided = true // A predicate not run yet: the others may still differ.
                continue
            }
            if !holds, !exhaustive {
                return result
            }
        }
        return result
    }

    /// Checks one condition, reporting a difference through `differ`; returns
    /// whether the condition held, or `nil` for a predicate whose result
    /// `predicates` does not know yet. A choice of alternatives is checked by
    /// `evaluate` itself, which collects the parameters of the one that matched.
    private func check(
        _ condition: Condition,
        _ request: RecordedRequest,
        _ target: RequestTarget?,
        _ predicates: inout PredicateResults,
        _ differ: (RequestMismatch.Aspect, String, String) -> Bool
    ) -> Bool? {
        switch condition {
        case let .query(name, value):
            let values = (target?.queryItems ?? []).filter { $0.name == name }.map(\.value)
            let holds = value.map { wanted in values.contains { $0 == wanted } } ?? !values.isEmpty
            if !holds {
                let actual = values.isEmpty ? "no \(name)" : values.map { "\(name)=\($0 ?? "")" }.joined(separator: "&")
                _ = differ(.query, value.map { "\(name)=\($0)" } ?? "a \(name) item", actual)
            }
            return holds
        case let .header(name, value):
            let actual = request.header(name)
            let holds = actual != nil && (value == nil || actual == value)
            if !holds {
                _ = differ(.header, "\(name): \(value ?? "(any value)")", actual.map { "\(name): \($0)" } ?? "no \(name) header")
            }
            return holds
        case let .body(expected):
            let holds = request.body == expected
            if !holds {
                _ = differ(.body, Self.bodyText(expected), request.body.map(Self.bodyText) ?? "no body")
            }
            return holds
        case let .jsonBody(canonical, display):
            let actual = request.body.flatMap(JSONCanonical.data)
            let holds = actual == canonical
            if !holds {
                let got = actual.map { String(decoding: $0, as: UTF8.self) } ?? request.body.map(Self.bodyText) ?? "no body"
                _ = differ(.body, "JSON \(display)", got)
            }
            return holds
        case let .bodyContains(text):
            let holds = request.bodyText?.contains(text) ?? false
            if !holds {
                _ = differ(.body, "a body containing \"\(text)\"", request.body.map(Self.bodyText) ?? "no body")
            }
            return holds
        case let .predicate(predicate):
            // The user's code: its result is known, run now, or left for the next round.
            guard let holds = predicates.result(of: predicate, for: request) else { return nil }
            if !holds {
                _ = differ(.predicate, predicate.description, "false")
            }
            return holds
        case let .host(host):
            let actual = target?.host ?? request.url.host ?? ""
            let holds = actual.caseInsensitiveCompare(host) == .orderedSame
            if !holds {
                _ = differ(.origin, "host \(host)", actual.isEmpty ? "no host" : "host \(actual)")
            }
            return holds
        case let .recordedQuery(expected):
            let actual = target?.listItems ?? []
            let holds = Redaction.queryItems(actual, match: expected)
            if !holds {
                _ = differ(.query, Self.queryText(expected).nonEmpty ?? "no query", Self.queryText(actual).nonEmpty ?? "no query")
            }
            return holds
        case let .recordedBody(expected):
            let holds = Redaction.body(request.body, matches: expected)
            if !holds {
                _ = differ(.body, expected.map(Self.bodyText) ?? "no body", request.body.map(Self.bodyText) ?? "no body")
            }
            return holds
        case .scheme, .pathSuffix, .fileExtension, .urlRegex, .formField, .alternatives, .not:
            return checkMore(condition, request, target, &predicates, differ)
        }
    }

    /// Whether two targets have the same origin: their scheme, host (both
    /// lowercased when parsed) and port (`nil` for the scheme's default) are equal,
    /// as their ``originText(_:)`` would be.
    static func sameOrigin(_ target: RequestTarget, _ origin: RequestTarget) -> Bool {
        target.port == origin.port && target.host == origin.host && target.scheme == origin.scheme
    }

    static func originText(_ target: RequestTarget) -> String {
        target.scheme + "://" + target.host + (target.port.map { ":\($0)" } ?? "")
    }

    /// The pattern's path as written: `/users/{id}/*`. Written into one string,
    /// segment by segment (it is built for every near miss of an unmatched request).
    static func pathText(_ url: URLPattern) -> String {
        if let literal = url.literalPath {
            return literal // Its segments joined by `/`, as written.
        }
        var text = ""
        for segment in url.segments {
            text += "/"
            switch segment {
            case let .literal(literal): text += literal
            case let .parameter(name): text += "{" + name + "}"
            case .wildcard: text += "*"
            case .rest: text += "**"
            }
        }
        return text.isEmpty ? "/" : text
    }

    /// `items` written as a query, decoded, but for the `%`, `&` and (in a name)
    /// `=` that would make it read as other items: the item `a=b` with the value
    /// `c` is written `a%3Db=c`, not as `a=b=c`, which is also `a` with `b=c`.
    static func queryText(_ items: [QueryItem]) -> String {
        func escaped(_ text: String, _ delimiters: Set<Character>) -> String {
            guard text.contains(where: delimiters.contains) else { return text }
            return text.map { delimiters.contains($0) ? "%" + String($0.asciiValue ?? 0, radix: 16, uppercase: true) : String($0) }.joined()
        }
        return items.map { item in
            let name = escaped(item.name, ["%", "&", "="])
            return item.value.map { name + "=" + escaped($0, ["%", "&"]) } ?? name
        }.joined(separator: "&")
    }

    static func bodyText(_ data: Data) -> String {
        guard let text = String(data: data, encoding: .utf8) else {
            return "\(data.count) bytes"
        }
        let limit = 120
        return text.count > limit ? "\"\(text.prefix(limit))…\" (\(data.count) bytes)" : "\"\(text)\""
    }
}
