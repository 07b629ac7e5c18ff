@testable import URLStubs
import Testing

/// The byte-level URL reading that every request and every registered stub goes
/// through, pinned below the public API because its fast paths must agree with its
/// general ones.
@Suite("URL text", .timeLimit(.minutes(1)))
struct URLTextTests {
    /// The parts of `text` as plain strings, `nil` when it is not an absolute URL.
    private func parts(_ text: String) -> [String?]? {
        URLText.split(text[...]).map { parts in
            [String(parts.scheme), String(parts.hostAndPort), parts.hasUserInfo ? "user" : nil, String(parts.path), parts.query.map(String.init), parts.fragment.map(String.init)]
        }
    }

    @Test("an absolute URL splits into scheme, authority, path, query and fragment at the first delimiter of each")
    func splitsEveryPart() {
        #expect(parts("https://u:p@api.example.com:8080/a/b?x=1?y#top?z") == ["https", "api.example.com:8080", "user", "/a/b", "x=1?y", "top?z"])
        #expect(parts("https://api.example.com") == ["https", "api.example.com", nil, "", nil, nil])
        #expect(parts("https://api.example.com?q") == ["https", "api.example.com", nil, "", "q", nil])
        #expect(parts("https://api.example.com#f") == ["https", "api.example.com", nil, "", nil, "f"])
        #expect(parts("https://a@b@host/") == ["https", "host", "user", "/", nil, nil])
        #expect(parts("https://ünï.example/☃?é") == ["https", "ünï.example", nil, "/☃", "é", nil])
    }

    @Test("text without a scheme followed by :// is not an absolute URL", arguments: ["", ":", "a:", "a:/", "a:/b", "mailto:x@example.com", "/users/1", "api.example.com/users"])
    func rejectsRelativeText(_ text: String) {
        #expect(parts(text) == nil)
    }

    @Test("the port is after the first colon of the authority, or after the closing bracket of an IPv6 literal", arguments: [
        ("api.example.com", "api.example.com", nil),
        ("api.example.com:8080", "api.example.com", "8080"),
        ("api.example.com:", "api.example.com", ""),
        ("a:b:c", "a", "b:c"),
        ("[::1]", "[::1]", nil),
        ("[::1]:8080", "[::1]", "8080"),
        ("[::1", "[", ":1"),
        ("ünï.example:1", "ünï.example", "1"),
    ] as [(String, String, String?)])
    func splitsThePort(_ authority: String, _ host: String, _ port: String?) {
        let (splitHost, splitPort) = URLText.splitPort(authority[...])
        #expect(String(splitHost) == host)
        #expect(splitPort.map(String.init) == port)
    }

    @Test("lowercasing says whether the text had an uppercase ASCII letter", arguments: [
        ("https", "https", true),
        ("HTTPS", "https", false),
        ("Api.Example.com", "api.example.com", false),
        ("ünï.example", "ünï.example", true),
        ("ÜNÏ.Example", "ÜnÏ.example", false),
    ])
    func lowercasesASCII(_ text: String, _ lowered: String, _ wasLowercase: Bool) {
        let result = URLText.lowercased(text[...])
        #expect(result.text == lowered)
        #expect(result.wasLowercase == wasLowercase)
    }

    @Test("a URL has the same route key however its scheme, host and port are written", arguments: [
        ("https://api.example.com/users/1?page=2", "https://api.example.com/users/1"),
        ("HTTPS://API.Example.COM:443/users/1", "https://api.example.com/users/1"),
        ("https://user:secret@api.example.com/users/1#x", "https://api.example.com/users/1"),
        ("http://localhost:80", "http://localhost/"),
        ("http://localhost:8080?q", "http://localhost:8080/"),
        ("https://api.example.com:/a", "https://api.example.com/a"),
    ])
    func routeKeyIsNormalised(_ url: String, _ expected: String) throws {
        let target = try #require(RequestTarget.of(absoluteString: url))
        #expect(target.routeKey == expected)
        let rebuilt = RequestTarget(scheme: target.scheme, host: target.host, port: target.port, path: target.path, query: target.query)
        #expect(rebuilt.routeKey == expected)
    }

    @Test("a URL in normal form is read by its fast path into exactly the parts the general parse finds", arguments: [
        "https://api.example.com/users/1",
        "https://api.example.com/users/1?page=2&sort=name",
        "https://api.example.com/a%20b/%7Bc%7D?q=%C3%A9#frag",
        "http://localhost/",
        "https://api.example.com/?",
        "https://xn--bcher-kva.example/b?x#",
        "https://bücher.example/straße",
        "ftp://files.example.com/pub/file.txt",
        "https://api.example.com/a%2Fb%20c",
        "https://api.example.com/100%/%zz/%2",
        // Not in normal form: the fast path must decline, and the general parse answer.
        "https://api.example.com/a%2fb",
        "https://api.example.com/%7Euser/%41%62c",
        "https://api.example.com/a%2Fb/%e2%82%ac?q=%2f",
        "HTTPS://API.example.com/a",
        "https://Api.example.com/a",
        "https://api.example.com:8443/a",
        "https://api.example.com:443/a",
        "https://api.example.com:/a",
        "https://user:pw@api.example.com/a",
        "http://[::1]:8080/a",
        "https://api.example.com",
        "https://api.example.com?q",
        "https:///a",
        "mailto:someone@example.com",
    ])
    func fastPathAgreesWithTheGeneralParse(_ url: String) {
        let fast = RequestTarget.of(absoluteString: url)
        let general = RequestTarget(parsing: url)
        #expect((fast == nil) == (general == nil))
        guard let fast, let general else { return }
        #expect(fast.scheme == general.scheme)
        #expect(fast.host == general.host)
        #expect(fast.port == general.port)
        #expect(fast.path == general.path)
        #expect(fast.query == general.query)
        #expect(fast.routeKey == general.routeKey)
    }

    @Test("a literal pattern in normal form is read by its fast path into exactly what the full parse finds", arguments: [
        "https://api.example.com/users/1",
        "https://api.example.com/",
        "https://api.example.com/v1/",
        "https://api.example.com//a",
        "https://api.example.com/a%20b/c:d@e/f;g=h,i!j$k&l'm(n)o+p~q",
        "http://127.0.0.1/health",
        // Not a literal in normal form: the fast path must decline, and the full parse answer or throw.
        "https://api.example.com/users/{id}",
        "https://api.example.com/files/*/raw",
        "https://api.example.com/files/**",
        "https://api.example.com/a*b",
        "https://api.example.com/a b",
        "https://api.example.com/é",
        "https://api.example.com/a?x=1",
        "https://api.example.com/a#top",
        "https://API.example.com/a",
        "https://api.example.com:8443/a",
        "https://user@api.example.com/a",
        "https://bücher.example/a",
        "https://api_ex^ample.com/a",
        "1https://api.example.com/a",
        "https://api.example.com/a ",
        " https://api.example.com/a",
        "https://api.example.com",
        "https://api.example.com/a%2fb",
        "https://api.example.com/%7Euser",
    ])
    func patternFastPathAgreesWithTheFullParse(_ source: String) {
        switch (Self.outcome { () throws(PatternError) in try URLPattern(parsing: source) },
                Self.outcome { () throws(PatternError) in try URLPattern(parsingInFull: source) }) {
        case let (.success(fast), .success(full)):
            #expect(fast.segments == full.segments)
            #expect(RequestPattern.pathText(fast) == RequestPattern.pathText(full)) // As a near-miss report writes it.
            #expect(fast.routeKey == full.routeKey)
            #expect(fast.query == full.query)
            #expect(fast.namesOrigin == full.namesOrigin)
            #expect(fast.originText == full.originText) // As a near-miss report writes it.
            // The fast path compares its origin as text, the full parse as fields: the same answers.
            for url in ["https://api.example.com/x", "http://api.example.com/x", "https://api.example.com:8443/x", "https://API.Example.com:443/x",
                        "https://api.example.org/x", "https://api.example.co/x", "http://127.0.0.1/x", "http://127.0.0.1:80/x"] {
                let target = RequestTarget.of(absoluteString: url)
                #expect(fast.hasOrigin(of: target) == full.hasOrigin(of: target), "\(source) and \(url)")
            }
        case let (.failure(fast), .failure(full)):
            #expect(fast.message == full.message)
        default:
            Issue.record("the fast path and the full parse disagree on whether \(source) is valid")
        }
    }

    @Test("a literal pattern read by its fast path matches exactly the paths the full parse's segments match", arguments: [
        "https://api.example.com/users/1",
        "https://api.example.com/",
        "https://api.example.com/v1/",
        "https://api.example.com//a",
        "https://api.example.com/a%20b/c",
    ])
    func patternFastPathMatchesAsTheFullParse(_ source: String) throws {
        let fast = try URLPattern(parsing: source)
        let full = try URLPattern(parsingInFull: source)
        #expect(fast.literalPath != nil) // The fast path was taken.
        #expect(full.literalPath == nil)
        let paths = ["/users/1", "/users/1/", "/users//1", "/users", "/users/12", "/", "", "//", "/v1", "/v1/", "/v1//", "//a", "/a", "/a%20b/c", "/a%20B/c", "/a b/c"]
        for path in paths {
            #expect(fast.matches(path: path) == full.matches(path: path), "\(source) and \(path)")
            #expect(fast.parameters(inPath: path) == full.parameters(inPath: path), "\(source) and \(path)")
        }
    }

    /// What `parse` returns or throws. (`Result(catching:)` keeps a typed error only
    /// on runtimes newer than the package's Apple deployment targets.)
    private static func outcome(_ parse: () throws(PatternError) -> URLPattern) -> Result<URLPattern, PatternError> {
        do {
            return .success(try parse())
        } catch {
            return .failure(error)
        }
    }

    @Test("a literal pattern and the request it names share a route key", arguments: [
        ("https://api.example.com/users/1", "https://api.example.com/users/1?x=1"),
        ("HTTPS://Api.Example.com:443/users/1", "https://api.example.com/users/1"),
        ("https://api.example.com/a b", "https://api.example.com/a%20b"),
        ("https://api.example.com", "https://api.example.com/"),
        ("http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1/"),
        ("https://api.example.com/a%2fb/%7E", "https://api.example.com/a%2Fb/~"),
        ("https://api.example.com/%41-%5F", "https://api.example.com/A-_"),
    ])
    func patternAndRequestAgree(_ pattern: String, _ request: String) throws {
        let parsed = try URLPattern(parsing: pattern)
        let target = try #require(RequestTarget.of(absoluteString: request))
        #expect(parsed.routeKey == target.routeKey)
    }

    @Test("a pattern with a template segment has no route key and parses each segment", arguments: [
        ("https://api.example.com/users/{id}", [URLPattern.Segment.literal("users"), .parameter("id")]),
        ("/files/*/raw/**", [.literal("files"), .wildcard, .literal("raw"), .rest]),
        ("https://api.example.com/a%7Bb%7D/c d/", [.literal("a%7Bb%7D"), .literal("c%20d"), .literal("")]),
    ])
    func templatesAreSegmented(_ pattern: String, _ segments: [URLPattern.Segment]) throws {
        let parsed = try URLPattern(parsing: pattern)
        #expect(parsed.segments == segments)
        let isLiteral = segments.allSatisfy { if case .literal = $0 { true } else { false } }
        #expect((parsed.routeKey != nil) == (isLiteral && parsed.namesOrigin))
    }

    @Test("a path's escapes are written in normal form: uppercase hex digits, an unreserved character as itself, an invalid escape and a lone % kept", arguments: [
        ("/a%2fb", "/a%2Fb"),
        ("/a%2Fb", "/a%2Fb"),
        ("/%7euser/%7E", "/~user/~"),
        ("/%41%5a%30%2D%2e%5F", "/AZ0-._"),
        ("/%e2%82%ac", "/%E2%82%AC"),
        ("/100%/%zz/%2", "/100%/%zz/%2"),
        ("/%%41", "/%A"),
    ])
    func pathEscapesInNormalForm(_ written: String, _ normal: String) throws {
        let target = try #require(RequestTarget.of(absoluteString: "https://api.example.com" + written))
        #expect(target.path == normal)
        #expect(target.routeKey == "https://api.example.com" + normal)
    }
}
