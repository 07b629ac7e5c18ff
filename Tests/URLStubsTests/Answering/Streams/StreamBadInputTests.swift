#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import URLStubs

@Suite("Streams given bad input", .timeLimit(.minutes(1)))
struct StreamBadInputTests {
    private static let url = "https://api.example.com/stream"
    private static let parts = ["a", "b", "c"].map { Data($0.utf8) }

    /// A response that cannot be delivered, and the reason the scope gives for it.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let response: StubResponse
        let reason: String
        var testDescription: String { reason }
    }

    static let refusals: [Refusal] = [
        Refusal(
            response: .serverSentEvents([.message("ok"), StubServerSentEvent(data: "x", event: "a\nb")]),
            reason: #"server-sent event 2 cannot be written: its event "a\nb" contains a line break, which would end the field early"#
        ),
        Refusal(
            response: .serverSentEvents([StubServerSentEvent(data: "x", id: "1\u{0}")]),
            reason: #"server-sent event 1 cannot be written: its id "1\0" contains a line break or a NUL character, which clients reject"#
        ),
        Refusal(
            response: .serverSentEvents([StubServerSentEvent(data: "x", retry: .seconds(-1))]),
            reason: "server-sent event 1 cannot be written: its retry interval -1.0 seconds is negative"
        ),
        Refusal(
            response: .serverSentEvents([StubServerSentEvent(data: nil)]),
            reason: "server-sent event 1 cannot be written: it has no field at all (give it data, an event type, an id, a retry interval or a comment)"
        ),
        Refusal(
            response: .chunks(parts).failing(after: .chunks(4), with: .timedOut),
            reason: ".failing(after: .chunks(4), with: …) cannot be applied: the body has only 3 chunks, so .chunks(4) is never reached"
        ),
        Refusal(
            // An empty chunk delivers nothing, and counts for no point.
            response: .chunks([Data("a".utf8), Data()]).failing(after: .chunks(2), with: .networkConnectionLost),
            reason: ".failing(after: .chunks(2), with: …) cannot be applied: the body has only 1 chunk, so .chunks(2) is never reached"
        ),
        Refusal(
            response: .text("12345").stalling(after: .bytes(6)),
            reason: ".stalling(after: .bytes(6)) cannot be applied: the body has only 5 bytes, so .bytes(6) is never reached"
        ),
        Refusal(
            response: .chunks(parts).endingEarly(after: .bytes(-1)),
            reason: ".endingEarly(after: .bytes(-1)) cannot be applied: .bytes(-1) counts from 0"
        ),
        Refusal(
            response: .chunks(parts).stalling(after: .chunks(1)).endingEarly(after: .chunks(2)),
            reason: ".endingEarly(after: .chunks(2)) cannot be applied: the stream already fails, stalls or ends early at another point; a stream is interrupted once"
        ),
        Refusal(
            response: .data(Data("x".utf8)).throttled(bytesPerSecond: 0),
            reason: ".throttled(bytesPerSecond: 0) cannot be applied: a rate of 0 bytes per second would never deliver the body (use 1 or more)"
        ),
        Refusal(
            response: .failure(.timedOut).stalling(after: .chunks(0)),
            reason: ".stalling(after: .chunks(0)) cannot be applied: a failure has no body to stream"
        ),
        Refusal(
            response: .chunks(parts, status: 99),
            reason: "status 99 is not a final HTTP status (use 200...599)"
        ),
    ]

    @Test("a stream that cannot be delivered is refused at its stub's line with the reason, and its request fails at once", arguments: refusals)
    func refused(_ refusal: Refusal) async throws {
        let line = #line + 4
        // Not inside #expect(throws:): #line in a macro's closure is not the source line.
        let error = await thrownError(StubVerificationError.self) {
            try await withStubScope { scope in
                await scope.stub(.get(Self.url), with: refusal.response)
                let failure = await thrownError(URLError.self) { _ = try await URLSession.stubbed.data(from: URL(string: Self.url)!) }
                #expect(failure?.localizedDescription.hasSuffix("cannot answer it: \(refusal.reason).") == true)
            }
        }
        #expect(error?.problems.map(\.message) == ["The stub GET \(Self.url) was refused: \(refusal.reason)."])
        #expect(error?.problems.first?.location?.line == line)
    }

    @Test("an event a written stream cannot frame fails the request, after what it wrote before, with the reason")
    func writtenUnframableEvent() async throws {
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(.get(Self.url), with: .stream { writer in
                try await writer.write(.message("fine"))
                try await writer.write(StubServerSentEvent(data: "x", event: "two\nlines"))
                Issue.record("a write after the stream failed must throw")
            })
            let reading = await reader.read(URLRequest(url: URL(string: Self.url)!))
            #expect(reading.texts == ["data: fine\n\n"])
            #expect(reading.error?.localizedDescription == #"URLStubs: the stream's closure wrote a server-sent event that cannot be framed: its event "two\nlines" contains a line break, which would end the field early."#)
        }
    }

    @Test("an empty chunk is skipped, as a server cannot send one, and an empty list of chunks is an empty body")
    func emptyChunks() async throws {
        let reader = ChunkReader()
        defer { reader.close() }
        try await withStubScope { scope in
            await scope.stub(.get(Self.url), with: .chunks([Data(), Data("x".utf8), Data()]))
            await scope.stub(.get("https://api.example.com/empty"), with: .chunks([]))
            #expect(await reader.read(URLRequest(url: URL(string: Self.url)!)).texts == ["x"])
            let empty = await reader.read(URLRequest(url: URL(string: "https://api.example.com/empty")!))
            #expect(empty.chunks.isEmpty)
            #expect(empty.error == nil)
            #expect(empty.response?.statusCode == 200)
        }
    }

    @Test("a retry interval longer than Int64.max milliseconds is written as Int64.max, in a list of events and from a writer, without trapping", arguments: [
        Duration.seconds(Int64.max), .seconds(Int64.max / 1_000 + 1), .seconds(Int64.max / 1_000) + .milliseconds(999),
    ])
    func hugeRetry(_ retry: Duration) async throws {
        let event = StubServerSentEvent(data: "x", retry: retry)
        #expect(event.problem == nil)
        let framed = "retry: 9223372036854775807\ndata: x\n\n"
        #expect(String(decoding: event.framed, as: UTF8.self) == framed)
        try await withStubScope { scope in
            await scope.stub(.get(Self.url), with: .serverSentEvents([event]))
            await scope.stub(.get(Self.url + "/written"), with: .stream { try await $0.write(event) })
            let (listed, _) = try await URLSession.stubbed.data(from: URL(string: Self.url)!)
            let (written, _) = try await URLSession.stubbed.data(from: URL(string: Self.url + "/written")!)
            #expect(String(decoding: listed, as: UTF8.self) == framed)
            #expect(String(decoding: written, as: UTF8.self) == framed)
        }
    }

    @Test("the largest retry interval that fits is written exactly, rounded down to whole milliseconds")
    func largestRetry() {
        let event = StubServerSentEvent(data: "x", retry: .seconds(Int64.max / 1_000) + .milliseconds(807) + .microseconds(999))
        #expect(String(decoding: event.framed, as: UTF8.self) == "retry: 9223372036854775807\ndata: x\n\n")
    }
}
