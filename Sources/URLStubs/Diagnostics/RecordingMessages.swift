import Foundation

/// What users read about cassettes, passthrough and redaction.
enum RecordingMessages {
    static func describe(_ error: CassetteError) -> String {
        switch error {
        case let .missingFile(path):
            "URLStubs: there is no cassette at \(path). Replay needs one: record it first by running the test with \(CassetteMode.environmentVariable)=missing (or mode: .recordMissing) against the real server."
        case let .unreadable(path, reason):
            "URLStubs: the cassette at \(path) cannot be read as a HAR file: \(reason)."
        case let .invalidRule(rule, reason):
            "URLStubs: the redaction rule \(rule) cannot be used: \(reason). Nothing was recorded."
        case let .invalidMatching(rule, reason):
            "URLStubs: the cassette matching rule \(rule) cannot be used: \(reason). Nothing was replayed or recorded."
        case let .leakedSecret(path, leak):
            "URLStubs: did not write the cassette \(path): a secret survived redaction in \(leak). Nothing was written. Add a redaction rule that removes it (Redaction.standard.adding(.jsonField(…)) or .pattern(…)), or stop the server from echoing it."
        case let .alreadyRecording(path):
            "URLStubs: another scope is recording into the cassette \(path) right now; give each test case a cassette of its own (on a suite trait, omit the cassette's name)."
        case let .unwritable(path, reason):
            "URLStubs: could not write the cassette \(path): \(reason)."
        case let .unusedRule(path, rule, entries):
            "URLStubs: did not write the cassette \(path): the redaction rule \(rule) removed nothing in its \(entries) \(entries == 1 ? "entry" : "entries"), so what it was meant to remove may be in them. Nothing was written. Fix the rule (a JSON path, a header or item name spelled as the exchanges spells it), or remove it."
        case let .invalidEnvironment(variable, value, reason):
            "URLStubs: the environment variable \(variable) is set to \"\(value)\", which URLStubs does not accept: \(reason)."
        case let .noTestCase(cassette):
            "URLStubs: the cassette \(cassette) names one file per test case, but this scope is not a test case's under the .stubbed trait. Name the file instead: .named(\"users\") or .at(url)."
        case let .noCassette(fields):
            "URLStubs: the scope's options set \(listed(fields)) but no cassette, so nothing would be replayed, recorded or redacted. Give the options a cassette (cassette: .at(url), or .named(\"users\", in: directory)), or leave \(fields.count == 1 ? "that field" : "those fields") out."
        case let .nilCassette(parameters):
            "URLStubs: withStubScope(cassette:...) was given \(listed(parameters)) but a nil cassette, so nothing would be replayed, recorded or redacted. Check the cassette's URL (Bundle's url(forResource:withExtension:) is nil for a file it cannot find), or leave \(parameters.count == 1 ? "that argument" : "those arguments") out."
        case let .noDirectory(cassette):
            "URLStubs: the cassette \(cassette) has no directory, and XCTest does not say which file the test is in, so there is no Cassettes/ next to it. Give the directory (.named(\"users\", in: directory)) or the file (.at(url))."
        }
    }

    /// `items` as an English list: `a`, `a and b`, `a, b and c`.
    static func listed(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }

    static let emptyHeaderName = "a header field name is empty"
    static let emptyJSONPath = "the path is empty; name a field, such as \"id\" or \"params.cursor\""
    static let emptyJSONPathKey = "a key of the path is empty; write keys joined by single dots, such as \"params.cursor\""
    static let bracketsInJSONPath = "paths have no brackets: a path that meets an array applies to each element, so write \"items.id\" for the id of every item"

    static func invalidBase64(entry index: Int, isRequest: Bool) -> String {
        "log.entries[\(index)].\(isRequest ? "request.postData" : "response.content") is marked \"encoding\": \"base64\" but its text is not base64"
    }

    static func decodingFailure(_ error: any Error) -> String {
        switch error {
        case let DecodingError.keyNotFound(key, context):
            "\(path(context.codingPath + [key])) is missing"
        case let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context):
            "\(path(context.codingPath)) has the wrong type (\(context.debugDescription))"
        case let DecodingError.dataCorrupted(context):
            context.codingPath.isEmpty ? "it is not JSON" : "\(path(context.codingPath)) is corrupted"
        default:
            error.localizedDescription
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
    }

    static let unexplainedFailure = "the request failed when it was recorded"

    static func notHTTP(_ request: RecordedRequest) -> String {
        "URLStubs: the network answered \(request) with something other than an HTTP response."
    }

    static func cassetteLine(_ file: URL) -> String {
        "from cassette \(file.lastPathComponent)"
    }

    static func replayHint(_ file: URL) -> String {
        "The cassette \(file.path) has no entry left for it (replay mode sends nothing to the network); to record it, run with \(CassetteMode.environmentVariable)=missing."
    }
}

/// What users read when a stub no longer answers what the real server does.
enum DriftMessages {
    static func drift(_ request: RecordedRequest, stub: String, differences: [String]) -> String {
        (["URLStubs: the stub \(stub) answers \(request) differently from the real server (the test received the stub's answer):"]
            + differences.map { "- " + $0 }).joined(separator: "\n")
    }

    static func status(stub: Int, server: Int) -> String {
        "status: the stub answers \(stub), the server \(server)"
    }

    static func contentType(stub: String?, server: String?) -> String {
        "content type: the stub answers \(stub ?? "none"), the server \(server ?? "none")"
    }

    static func missingKey(_ path: String) -> String {
        "JSON: \(path) is in the stub's answer but missing from the server's"
    }

    static func extraKey(_ path: String) -> String {
        "JSON: \(path) is in the server's answer but missing from the stub's"
    }

    static func differentType(_ path: String, stub: String, server: String) -> String {
        "JSON: \(path) is \(stub) in the stub's answer but \(server) in the server's"
    }

    static func serverFailed(stubStatus: Int, error: String) -> String {
        "the stub answers \(stubStatus), but the live request failed: \(error)"
    }
}

extension RecordingMessages {
    /// The text written instead of a body that redaction could not read.
    static func unreadableBody(_ reason: String) -> String {
        "\(Redaction.placeholder): URLStubs did not write this body: \(reason), so the redaction rules could not be applied to it."
    }

    /// Why a body that is text and also decodes as its `Content-Encoding` says is
    /// not written (``unreadableBody(_:)``).
    static let textThatInflates = "it reads as text and also inflates as its Content-Encoding says, so which of the two it is cannot be told"

    /// Why a body holding compressed data that the rules would change is not
    /// written (``unreadableBody(_:)``).
    static let compressedDataWithSecrets = "it holds compressed data (gzip, zlib or raw DEFLATE) whose content the rules change, and URLStubs cannot write that content back compressed"
}

extension RecordingMessages {
    /// What replaces a line of a failure report or message that still holds a
    /// secret after scrubbing.
    static let withheldLine = "(URLStubs withheld this line: it holds a secret from the exchanges in a form that cannot be cut out)"
}
