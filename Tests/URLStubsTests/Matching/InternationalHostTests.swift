#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

/// A pattern whose host has non-ASCII letters (an internationalized domain name)
/// matches the requests Foundation sends for it, whose URLs carry the host's
/// ASCII (Punycode) form.
@Suite("International host names", .timeLimit(.minutes(1)))
struct InternationalHostTests {
    @Test("Punycode encodes the samples of RFC 3492 and common labels exactly", arguments: [
        ("bücher", "bcher-kva"),
        ("münchen", "mnchen-3ya"),
        ("äöü", "4ca0bs"),
        ("他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),
        ("3年b組金八先生", "3b-ww4c5e180e575a65lsy2b"),
        ("\u{644}\u{64A}\u{647}\u{645}\u{627}\u{628}\u{62A}\u{643}\u{644}\u{645}\u{648}\u{634}\u{639}\u{631}\u{628}\u{64A}\u{61F}", "egbpdaj6bu4bxfgehfvwxn"),
        ("ß", "zca"),
    ])
    func punycode(label: String, encoded: String) {
        #expect(Punycode.encode(Array(label.unicodeScalars)) == encoded)
    }

    /// Hosts written in a pattern, each with the host Foundation sends for it.
    static let hosts = [
        "bücher.example",
        "BÜCHER.Example",
        "www.Bücher.MÜLLER.example",
        "ÄÖÜ.de",
        "école.fr",
        "e\u{301}cole.fr",
        "他们为什么不说中文.example",
        "3年B組金八先生.jp",
        "a☃b.example",
        "ß.de",
        "Ｆｕｌｌ.de",
        "a。b.example",
    ]

    @Test("a pattern with an international host answers the request Foundation sends for the same URL, matched in its ASCII form", arguments: hosts)
    func matchesWhatFoundationSends(host: String) async throws {
        let written = "https://\(host)/x"
        let url = try #require(URL(string: written))
        let sent = try #require(url.host)
        #expect(sent.utf8.allSatisfy { $0 < 0x80 }, "Foundation sends an ASCII host: \(sent)")
        try await withStubScope { scope in
            await scope.stub(.get(written), with: .text(sent))
            let (data, _) = try await URLSession.stubbed.data(from: url)
            #expect(String(decoding: data, as: UTF8.self) == sent)
            // The ASCII form, written by hand, is the same request.
            let (again, _) = try await URLSession.stubbed.data(from: URL(string: "https://\(sent)/x")!)
            #expect(again == data)
        }
    }

    @Test("the pattern's host is the exact ASCII form: bücher.example is xn--bcher-kva.example, and no other host", arguments: [
        ("https://bücher.example/x", "https://xn--bcher-kva.example/x"),
        ("https://www.BÜCHER.example:8443/x", "https://www.xn--bcher-kva.example:8443/x"),
    ])
    func exactForm(pattern: String, ascii: String) async throws {
        try await withStubScope { scope in
            await scope.stub(.get(pattern), with: .text("ok"))
            await scope.stub(.get("https://bucher.example/x"), with: .text("plain"))
            let (data, _) = try await URLSession.stubbed.data(from: URL(string: ascii)!)
            #expect(data == Data("ok".utf8))
            let (plain, _) = try await URLSession.stubbed.data(from: URL(string: "https://bucher.example/x")!)
            #expect(plain == Data("plain".utf8))
        }
    }

    @Test("a template pattern with an international host matches too, capturing its parameters")
    func templatePattern() async throws {
        try await withStubScope { scope in
            await scope.stub(.get("https://bücher.example/books/{id}")) { request in
                .text(request.pathParameters["id"] ?? "-")
            }
            let (data, _) = try await URLSession.stubbed.data(from: URL(string: "https://bücher.example/books/42")!)
            #expect(data == Data("42".utf8))
        }
    }

    @Test("a host character that is no letter, mark, number or symbol is still refused, naming it", arguments: [
        ("https://a\u{A0}b.example/x", "\u{A0}"),
        ("https://bü«cher.example/x", "«"),
        ("https://bü\u{2028}cher.example/x", "\u{2028}"),
    ])
    func refused(pattern: String, character: String) async {
        do {
            try await withStubScope { await $0.stub(.get(pattern), with: .status(200)) }
            Issue.record("the pattern was accepted")
        } catch let error as StubVerificationError {
            #expect(error.problems.map(\.message) == [
                "The stub GET \(pattern) cannot be used: \"\(pattern)\" is not a valid URL: its host contains \"\(character)\".",
            ])
        } catch {
            Issue.record("unexpected: \(error)")
        }
    }

    @Test(".host() with an international host matches the request Foundation sends, in its ASCII form; so do faults given that pattern", arguments: hosts)
    func hostCondition(host: String) async throws {
        let url = try #require(URL(string: "https://\(host)/x"))
        try await withStubScope { scope in
            await scope.stub(.host(host), with: .text("matched"))
            let (data, _) = try await URLSession.stubbed.data(from: url)
            #expect(String(decoding: data, as: UTF8.self) == "matched")
            await scope.injectFaults(.host(host), rate: 1, faults: [.serviceUnavailable], seed: 1)
            let (_, response) = try await URLSession.stubbed.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 503)
        }
    }

    @Test(".host() is refused, naming why, for what no request's host can be: a URL, a port, a user, a character no host has", arguments: [
        ("", "it is empty"),
        ("https://api.example.com", "write the host alone, such as \"api.example.com\", without a scheme, a user, a path, a query or a fragment"),
        ("api.example.com/users", "write the host alone, such as \"api.example.com\", without a scheme, a user, a path, a query or a fragment"),
        ("ann@api.example.com", "write the host alone, such as \"api.example.com\", without a scheme, a user, a path, a query or a fragment"),
        ("localhost:8080", "write the host without its port, such as \"localhost\""),
        ("[::1]:8080", "write the host without its port, such as \"localhost\""),
        ("api example.com", "it contains \" \""),
    ])
    func hostConditionRefused(host: String, reason: String) async {
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                _ = await scope.stub(.host(host), with: .status(200))
            }
        }
        #expect(error?.problems.map(\.message) == ["The stub \(RequestPattern.host(host)) cannot be used: \"\(host)\" is not a host: \(reason)."])
    }

    @Test(".host() with an IPv6 address matches it with or without its brackets, and any case")
    func ipv6HostCondition() {
        let url = URL(string: "http://[::1]:8080/x")!
        let request = RecordedRequest(urlRequest: URLRequest(url: url), url: url, body: nil, sequenceNumber: 1)
        for host in ["::1", "[::1]", "[::1]"] {
            #expect(RequestPattern.host(host).evaluate(request, exhaustive: false).isMatch, "\(host)")
        }
        #expect(RequestPattern.host("API.Example.com").evaluate(RecordedRequest(urlRequest: URLRequest(url: URL(string: "https://api.example.com/")!), url: URL(string: "https://api.example.com/")!, body: nil, sequenceNumber: 1), exhaustive: false).isMatch)
    }
}
