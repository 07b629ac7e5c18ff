@testable import URLStubs
import Testing

/// What a template captures, kept by matching as the template itself and decoded
/// from the path only when read: the decoded values must be those a match would
/// have captured at once.
@Suite("Path captures", .timeLimit(.minutes(1)))
struct PathCapturesTests {
    private func template(_ source: String) throws -> URLPattern {
        try URLPattern(parsing: source)
    }

    @Test("a template's captures, read later, are its parameters percent-decoded from the matched path")
    func decodesWhenRead() throws {
        let pattern = try template("https://api.example.com/users/{id}/files/{name}")
        let path = "/users/7/files/caf%C3%A9%20menu"
        #expect(pattern.matches(path: path))
        #expect(try #require(PathCaptures(matching: pattern, path: path)).values(inPath: path) == ["id": "7", "name": "café menu"])
    }

    @Test("a path the template does not match has no parameters, and matching it captures nothing", arguments: ["/users/7", "/users//files/a", "/users/7/files/a/b", "/people/7/files/a"])
    func mismatchCapturesNothing(_ path: String) throws {
        let pattern = try template("https://api.example.com/users/{id}/files/{name}")
        #expect(!pattern.matches(path: path))
        #expect(pattern.parameters(inPath: path) == nil)
        #expect(PathCaptures(matching: pattern, path: path) == nil)
    }

    @Test("a template without parameters, and no template, capture an empty set")
    func emptyCaptures() throws {
        let pattern = try template("https://api.example.com/users/*/files/**")
        #expect(pattern.matches(path: "/users/7/files/a/b"))
        #expect(try #require(PathCaptures(matching: pattern, path: "/users/7/files/a/b")).values(inPath: "/users/7/files/a/b") == [:])
        #expect(PathCaptures.none.values(inPath: "/users/7") == [:])
    }

    @Test("merged captures keep the first template's value of a name both capture, and add the other's names")
    func mergeKeepsOwnValues() throws {
        let path = "/orgs/acme/repos/tools"
        var captures = try #require(PathCaptures(matching: try template("/orgs/{org}/repos/*"), path: path))
        captures.merge(try #require(PathCaptures(matching: try template("/orgs/{owner}/repos/{org}"), path: path)), inPath: path)
        #expect(captures.values(inPath: path) == ["org": "acme", "owner": "acme"])
        var empty = PathCaptures.none
        empty.merge(try #require(PathCaptures(matching: try template("/orgs/{org}/repos/*"), path: path)), inPath: path)
        #expect(empty.values(inPath: path) == ["org": "acme"])
    }

    @Test("every read of captures with several parameters lists them in one order, so two reads can be paired")
    func severalParametersKeepOneOrder() throws {
        let path = "/a/1/b/2/c/3/d/4"
        let captures = try #require(PathCaptures(matching: try template("/a/{w}/b/{x}/c/{y}/d/{z}"), path: path))
        // Held at once, as `zip(request.pathParameters.keys, request.pathParameters.values)` holds them.
        let reads = (0..<20).map { _ in captures.values(inPath: path) }
        #expect(Set(reads.map { Array($0.keys) }).count == 1)
        for (key, value) in zip(reads[0].keys, reads[1].values) {
            #expect(reads[0][key] == value)
        }
    }
}
