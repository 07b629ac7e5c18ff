#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// What recording does to the cassette file: what a `.record` run replaces, what a
/// run that records nothing leaves, a body that throws, and the order of the keys.
@Suite("What recording writes to the cassette file", .timeLimit(.minutes(1)))
struct RecordModeFileTests {
    @Test(".record over an existing cassette replaces its entries with this run's only")
    func recordReplacesEntries() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("users.har")
        let server = try RecordingTests.server()
        defer { server.stop() }
        try await withStubScope(cassette: file, mode: .record) { _ in
            _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
        }
        try await withStubScope(cassette: file, mode: .record) { _ in
            _ = try await URLSession.stubbed.data(from: server.url("/bytes"))
        }
        #expect(try RecordingTests.entryURLs(in: file) == [server.url("/bytes").absoluteString])
    }

    @Test("a .record run that sends nothing to the network leaves an existing cassette byte for byte as it was")
    func recordingNothingLeavesTheFile() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("users.har")
        let server = try RecordingTests.server()
        defer { server.stop() }
        try await withStubScope(cassette: file, mode: .record) { _ in
            _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
        }
        let before = try Data(contentsOf: file)
        // One run answered by its own stub, one that fails before its first request.
        try await withStubScope(cassette: file, mode: .record) { scope throws in
            await scope.stub(.get(server.url("/users/1").absoluteString), with: .text("stubbed"))
            #expect(try await getText(server.url("/users/1").absoluteString) == "stubbed")
        }
        await #expect(throws: BodyFailure.self) {
            try await withStubScope(cassette: file, mode: .record) { _ in throw BodyFailure() }
        }
        #expect(try Data(contentsOf: file) == before)
        #expect(server.requests.map(\.path) == ["/users/1"])
    }

    @Test("a cassette is written when the body throws after its requests, and the body's error is rethrown")
    func writtenWhenTheBodyThrows() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("users.har")
        let server = try RecordingTests.server()
        defer { server.stop() }
        await #expect(throws: BodyFailure.self) {
            try await withStubScope(cassette: file, mode: .record) { _ in
                _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
                throw BodyFailure()
            }
        }
        #expect(try RecordingTests.entryURLs(in: file) == [server.url("/users/1").absoluteString])
    }

    @Test("every object of a written cassette lists its keys in sorted order")
    func keysAreSorted() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("sorted.har")
        let server = try RecordingTests.server()
        defer { server.stop() }
        try await withStubScope(cassette: file, mode: .record) { _ in
            var request = URLRequest(url: server.url("/echo?zeta=1&alpha=2"))
            request.httpMethod = "POST"
            request.setValue("trace-1", forHTTPHeaderField: "X-Trace")
            request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data("payload".utf8)
            _ = try await URLSession.stubbed.data(for: request)
            _ = try await URLSession.stubbed.data(from: server.url("/users/1"))
        }
        // The reading itself: keys in written order, strings with escapes skipped whole.
        let sample = Data(#"{"b": 1, "a": {"d": "x\"}: ", "c": [{"f": 1, "e": 2}]}}"#.utf8)
        #expect(JSONKeyOrder.keysOfEachObject(in: sample) == [["f", "e"], ["d", "c"], ["b", "a"]])
        let objects = JSONKeyOrder.keysOfEachObject(in: try Data(contentsOf: file))
        // The file's objects: the log, its creator, the entries with their requests,
        // responses, timings, cache and content; many, so the check is not vacuous.
        #expect(objects.count > 10)
        for keys in objects {
            #expect(keys == keys.sorted(), "keys out of order: \(keys)")
        }
    }

    /// An error of the test's own.
    struct BodyFailure: Error {}
}

/// The keys of each JSON object of a document, in the order they are written
/// (which parsing into a dictionary forgets).
enum JSONKeyOrder {
    /// The keys of every object of `json`, an object's list once it is closed.
    static func keysOfEachObject(in json: Data) -> [[String]] {
        let bytes = Array(json)
        var open: [[String]?] = [] // One per open container; `nil` for an array.
        var closed: [[String]] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                open.append([])
            case UInt8(ascii: "["):
                open.append(nil)
            case UInt8(ascii: "}"):
                if let keys = open.removeLast() {
                    closed.append(keys)
                }
            case UInt8(ascii: "]"):
                open.removeLast()
            case UInt8(ascii: "\""):
                let start = index + 1
                index = start
                while bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                var next = index + 1
                while next < bytes.count, [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains(bytes[next]) {
                    next += 1
                }
                // A string followed by a colon is a key of the innermost object.
                if next < bytes.count, bytes[next] == UInt8(ascii: ":"), open.last.map({ $0 != nil }) == true {
                    open[open.count - 1]?.append(String(decoding: bytes[start..<index], as: UTF8.self))
                }
            default:
                break
            }
            index += 1
        }
        return closed
    }
}
