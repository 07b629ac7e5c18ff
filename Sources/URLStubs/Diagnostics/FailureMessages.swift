#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What a request that URLStubs fails is told, and what its test reports.
enum FailureMessages {
    static func unmatched(_ request: RecordedRequest, in title: String, nearMisses: [NearMiss], stubCount: Int) -> String {
        // "URLStubs: no stub matches <request> in <title>." then the near misses,
        // written into one string with room for them: it then grows once, if ever.
        var text = ""
        text.reserveCapacity(192 + 128 * nearMisses.count)
        text += "URLStubs: no stub matches "
        text += request.description
        text += " in "
        text += title
        text += "."
        appendNearMisses(nearMisses, stubCount: stubCount, to: &text)
        return text
    }

    /// Appends the lines listing the nearest stubs, or saying that none is near,
    /// each after a line break: written into the message, not joined from lines.
    private static func appendNearMisses(_ nearMisses: [NearMiss], stubCount: Int, to text: inout String) {
        if stubCount == 0 {
            text += "\nNo stub is registered in this scope, its enclosing scopes or the global scope."
        } else if nearMisses.isEmpty {
            text += "\nNone of the \(stubCount) registered stubs comes close: none shares its origin or its path."
        } else {
            text += "\nNearest stubs:"
            for (index, miss) in nearMisses.enumerated() {
                // Numbered on its first line, the others indented under it.
                text += "\n  "
                text += String(index + 1)
                text += ". "
                guard miss.hasLineBreaks else {
                    // Nearly every near miss: written straight into the report.
                    miss.write(into: &text, separator: "\n     ")
                    continue
                }
                // A line with breaks of its own (a body's text) is split there too,
                // its empty lines dropped.
                for (number, line) in lines(of: miss.description).enumerated() {
                    if number > 0 {
                        text += "\n     "
                    }
                    text += line
                }
            }
        }
    }

    /// The non-empty lines of `text`, split at each line break (LF, CR, or CR LF,
    /// which Swift reads as one character): at its bytes when the text has no CR,
    /// as a character split would, only without walking its characters.
    static func lines(of text: String) -> [Substring] {
        guard !text.utf8.contains(UInt8(ascii: "\r")) else {
            return text.split { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        }
        return text.utf8.split(separator: UInt8(ascii: "\n")).map { Substring($0) }
    }

    static func tooManyRedirects(_ response: HTTPURLResponse, to next: URLRequest, hops: Int) -> String {
        let from = response.url?.absoluteString ?? "?"
        let to = next.url?.absoluteString ?? "?"
        return "URLStubs: too many redirects: after \(hops) in a row, \(from) redirects again (\(response.statusCode)) to \(to); a stub may redirect in a loop."
    }

    static func timedOut(_ request: RecordedRequest, after interval: Duration) -> String {
        "URLStubs: \(request) timed out: no answer within its timeoutInterval of \(interval) on its scope's clock."
    }

    static func unframableWrittenEvent(_ problem: String) -> String {
        "URLStubs: the stream's closure wrote a server-sent event that cannot be framed: \(problem)."
    }

    static func noScope(_ request: RecordedRequest, nearMisses: [NearMiss]) -> String {
        var text = noScopeExplanation(request)
        if !nearMisses.isEmpty {
            appendNearMisses(nearMisses, stubCount: nearMisses.count, to: &text)
        }
        return text
    }

    private static func noScopeExplanation(_ request: RecordedRequest) -> String {
        """
        URLStubs: no stub matches \(request): the request reached the stub protocol outside any stub scope, \
        and no process-wide stub (StubScope.global) matches it. Either it was resumed outside any scope \
        (a Task.detached or a DispatchQueue block does not inherit the scope: make the request from the \
        test's task or a child Task, or register it on StubScope.global), or its session's configuration \
        has a URL cache (Foundation then creates the protocol on a background queue where the scope is \
        not visible: build the session from URLSessionConfiguration.stubbed, which sets urlCache = nil).
        """
    }

    static func scopeEnded(_ request: RecordedRequest, scope: StubScope) -> String {
        "URLStubs: \(request) was made in \(scope), which has already ended; a request must finish before the withStubScope body (or the test) that made it returns."
    }

    static func abandoned(_ request: RecordedRequest, in title: String) -> String {
        "URLStubs: \(request) was still waiting for its response when \(title) ended; await it inside the scope, or cancel it."
    }

    static func refused(_ request: RecordedRequest, stub: StubEntry, reason: String) -> String {
        "URLStubs: the stub \(stub.summary) matches \(request) but cannot answer it: \(reason)."
    }

    static func overLimit(_ request: RecordedRequest, stub: StubEntry) -> String {
        let allowed = stub.expectation.maximum ?? 0
        let requests = allowed == 1 ? "1 request" : "\(allowed) requests"
        return "URLStubs: \(request) was refused: the stub \(stub.summary) allows \(requests) and this is the \(ordinal(stub.hits + stub.violations)); no other stub matches it."
    }

    /// `number` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st.
    static func ordinal(_ number: Int) -> String {
        let suffix = switch (number % 10, number % 100) {
        case (_, 11...13): "th"
        case (1, _): "st"
        case (2, _): "nd"
        case (3, _): "rd"
        default: "th"
        }
        return "\(number)\(suffix)"
    }

    static func forbidden(_ request: RecordedRequest, stub: StubEntry) -> String {
        "URLStubs: \(request) matches the stub \(stub.summary), which expects no requests."
    }

    static func noURL(_ request: URLRequest) -> String {
        "URLStubs: a \(request.httpMethod ?? "GET") request with no URL cannot be answered; set the request's url before sending it."
    }

    static func unsupportedTask(_ request: URLRequest, kind: String) -> String {
        "URLStubs: \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?") was made with a \(kind), which Foundation on Linux cannot complete through a URL protocol; use data(for:) or a data task instead."
    }

    static func taskDelegateOnLinux(_ request: URLRequest, delegate: AnyObject) -> String {
        "URLStubs: \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?") was made with a task delegate (\(String(describing: type(of: delegate)))), which Foundation on Linux never calls: only the session's delegate gets a task's response, data and completion there. It was failed rather than left waiting. Give the delegate to the session instead: URLSession(configuration: .stubbed, delegate: yourDelegate, delegateQueue: nil), or use data(for:) or a completion handler."
    }

    static func unbuildableResponse(_ request: RecordedRequest, status: Int) -> String {
        "URLStubs: Foundation could not build a response with status \(status) for \(request)."
    }

    static func refusedComputedResponse(_ request: RecordedRequest, reason: String) -> String {
        "URLStubs: the response computed for \(request) cannot be delivered: \(reason)."
    }

    /// A request whose task was never tagged with a scope; `taskClass` is the
    /// class of the task object the protocol was given, if it was given one.
    static func untagged(_ request: URLRequest, taskClass: String?) -> String {
        let what = "URLStubs: \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?")"
        let failed = "it was failed rather than answered from another scope or the network."
        guard let taskClass else {
            return "\(what) reached the stub protocol without its URL session task, so URLStubs cannot tell which stub scope it was resumed in; \(failed) Make requests with a URLSession task (data(for:), dataTask, bytes(for:)) through URLSession.stubbed or a session built from URLSessionConfiguration.stubbed."
        }
        if taskClass.hasPrefix("NW") {
            return "\(what) was loaded by Apple's Network.framework URL loader (task class \(taskClass), a session whose configuration has usesClassicLoadingMode = false), which gave the stub protocol a task that was never resumed through the hooked resume, so URLStubs cannot tell which stub scope it belongs to; \(failed) Build the session from URLSessionConfiguration.stubbed or .stubbed(from:), which select the classic loader, or set usesClassicLoadingMode = true on its configuration."
        }
        return "\(what) reached the stub protocol with a task (class \(taskClass)) that was never resumed through the hooked resume, so URLStubs cannot tell which stub scope it was resumed in; \(failed) Resume the task yourself (data(for:), dataTask(with:).resume(), bytes(for:)) from the test's task, through URLSession.stubbed or a session built from URLSessionConfiguration.stubbed."
    }

    /// A request whose protocol was given a stand-in for its task, when tasks
    /// with the same identifier, method and URL were resumed in different scopes.
    static func ambiguousTask(_ request: URLRequest, taskClass: String) -> String {
        "URLStubs: \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?") reached the stub protocol with a stand-in task (class \(taskClass)), as Apple's Network.framework loader (usesClassicLoadingMode = false) may give, and tasks with its identifier, method and URL were resumed in different stub scopes at once, so URLStubs cannot tell which one it belongs to; it was failed rather than answered from the wrong scope. Build the session from URLSessionConfiguration.stubbed or .stubbed(from:), which select the classic loader, or set usesClassicLoadingMode = true on its configuration."
    }

    /// Why scope capture may be incomplete on Apple platforms.
    static func resumeNotHooked(_ classes: [String]) -> String {
        "URLStubs could not replace resume in \(classes.joined(separator: ", ")): tasks of those classes are not tagged with their stub scope when resumed, so their requests fail with an error saying so instead of being answered."
    }
}
