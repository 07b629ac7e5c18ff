#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

/// Many late answers at once through real sessions, each made of several client
/// calls: every request ends once, with its whole body, and Foundation is never
/// called for a task it has let go (on Linux that stops the process).
@Suite("Late answers under load", .timeLimit(.minutes(1)))
struct LateAnswerStressTests {
    private static let url = URL(string: "https://api.example.com/words")!
    private static let words = ["one", "two", "three", "four", "five", "six"]

    @Test("400 streamed answers of six pieces, half read by data(from:) and half piece by piece by a session delegate, each arrive whole and end once")
    func streamedAnswersUnderLoad() async throws {
        let reader = ChunkReader()
        defer { reader.close() }
        for _ in 0..<10 {
            try await withStubScope { scope in
                await scope.stub(.get(Self.url), with: .stream { writer in
                    for word in Self.words {
                        try await writer.write(word)
                    }
                })
                let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                    for index in 0..<40 {
                        group.addTask {
                            if index.isMultiple(of: 2) {
                                return String(decoding: try await URLSession.stubbed.data(from: Self.url).0, as: UTF8.self)
                            }
                            // Piece by piece: ends once, with every piece and none after its end.
                            let reading = await reader.read(URLRequest(url: Self.url))
                            return reading.error == nil && reading.lateChunks == 0 ? reading.text : "\(reading)"
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(bodies == Array(repeating: Self.words.joined(), count: 40))
            }
        }
    }
}
