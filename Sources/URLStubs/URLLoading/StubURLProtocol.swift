#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The URL protocol that answers requests from stub scopes instead of the network.
///
/// Put it first in a session configuration's `protocolClasses` (or use
/// `URLSessionConfiguration.stubbed`, which also sets `urlCache = nil`). It
/// intercepts every request of such a session: nothing reaches the network, and a
/// request no stub matches fails with a `URLError` that says why.
///
/// How it bridges Foundation's synchronous hooks to the registry actor without ever
/// blocking:
/// - ``canInit(with:)`` returns `true` at once; it takes no lock and reads nothing.
/// - `init` runs inside `resume()` on the caller's task (when the session has no URL
///   cache), captures the current ``StubScope`` from the task-local, and starts a
///   Swift task that asks the registry for the answer.
/// - ``startLoading()`` delivers the answer if it is ready; otherwise it is
///   delivered as soon as it is, on Foundation's work queue (see `StubExchange`).
/// - ``stopLoading()`` stops the delivery: nothing reaches the client while the
///   protocol is stopped.
open class StubURLProtocol: URLProtocol {
    /// The scope current where the request was resumed, captured in `init`.
    private let capturedScope: StubScope?
    /// Links the answering task and the client: one outcome, never while stopped.
    private var exchange: StubExchange?

    /// Returns `true`: a stubbed session answers every request from stubs.
    override open class func canInit(with request: URLRequest) -> Bool {
        true
    }

    /// Returns `request` unchanged.
    override open class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    #if canImport(FoundationNetworking)
    /// Creates the protocol for `request`, capturing the stub scope of the calling
    /// task and starting to produce the answer.
    public required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        capturedScope = StubScope.bound
        super.init(request: request, cachedResponse: cachedResponse, client: client)
        beginAnswering(reusing: nil)
    }
    #else
    /// Creates the protocol for `request`, capturing the stub scope of the calling
    /// task and starting to produce the answer.
    override public init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        capturedScope = StubScope.bound
        super.init(request: request, cachedResponse: cachedResponse, client: client)
        beginAnswering(reusing: nil)
    }
    #endif

    /// Delivers the answer if it is ready; otherwise it is delivered as soon as it is.
    ///
    /// On Linux, Foundation calls this again on the session's work queue once a late
    /// answer is ready (see ``StubExchange``); that call delivers it.
    override open func startLoading() {
        guard let exchange else { return }
        if let unsupported = unsupportedTaskKind {
            exchange.stop()
            let message = StubFailure.unsupportedTaskMessage(request, kind: unsupported)
            let replacement = StubExchange(urlProtocol: self)
            self.exchange = replacement
            _ = replacement.start()
            replacement.complete(with: .failure(StubFailure.error(message, url: request.url)), isOnWorkQueue: true)
            return
        }
        if case let .restart(resolution) = exchange.start() {
            beginAnswering(reusing: resolution)
        }
    }

    /// Stops the delivery of the answer: nothing reaches the client until loading
    /// starts again (after a suspend), and never after a cancel.
    override open func stopLoading() {
        exchange?.stop()
    }

    /// Starts the Swift task that produces the answer, through a new exchange when
    /// loading restarts after a suspend.
    private func beginAnswering(reusing resolution: StubRegistry.Resolution?) {
        let exchange = self.exchange ?? StubExchange(urlProtocol: self)
        self.exchange = exchange
        let request = self.request
        let scope = capturedScope
        Self.spawnAnswer(request, in: scope, through: exchange, reusing: resolution)
    }

    /// Starts a task that answers `request` through `exchange`, on the answer
    /// executor where it is available.
    private static func spawnAnswer(
        _ request: URLRequest,
        in scope: StubScope?,
        through exchange: StubExchange,
        reusing resolution: StubRegistry.Resolution?
    ) {
        let operation: @Sendable () async -> Void = {
            await answer(request, in: scope, through: exchange, reusing: resolution)
        }
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            exchange.attach(Task(executorPreference: AnswerExecutor.shared, operation: operation))
        } else {
            exchange.attach(Task(operation: operation))
        }
    }

    /// The kind of task Foundation on Linux cannot complete through a URL protocol.
    private var unsupportedTaskKind: String? {
        #if canImport(FoundationNetworking)
        if task is URLSessionDownloadTask { return "download task" }
        if task is URLSessionWebSocketTask { return "WebSocket task" }
        #endif
        return nil
    }

    /// Resolves `request` in the registry (unless a resolution is given) and
    /// delivers the outcome.
    static func answer(
        _ request: URLRequest,
        in scope: StubScope?,
        through exchange: StubExchange,
        reusing known: StubRegistry.Resolution?
    ) async {
        let registry = StubRegistry.shared
        let resolution: StubRegistry.Resolution
        if let known {
            resolution = known
        } else {
            let body = request.httpBody ?? request.httpBodyStream.map(drain)
            let target = request.url.flatMap(RequestTarget.init)
            resolution = await registry.resolve(request, body: body, target: target, scope: scope, exchange: exchange)
            switch exchange.resolved(resolution, byCancelledTask: Task.isCancelled) {
            case .proceed:
                break
            case .respawn:
                spawnAnswer(request, in: scope, through: exchange, reusing: resolution)
                return
            case .halt:
                return
            }
        }
        switch resolution {
        case let .fail(error):
            exchange.complete(with: .failure(error))
        case let .respond(response, recorded):
            await deliver(response, for: recorded, through: exchange)
            if response.delay != nil, exchange.hasOutcome {
                await registry.settle(exchange, in: scope)
            }
        case let .compute(respond, recorded):
            do {
                let response = try await respond(recorded)
                await deliver(response, for: recorded, through: exchange)
            } catch {
                // Cancelled by a stop: a cancel is failed by Foundation, a suspend is
                // answered anew when loading resumes, a scope end already answered.
                guard !Task.isCancelled else { return }
                exchange.complete(with: .failure(error))
            }
            if exchange.hasOutcome {
                await registry.settle(exchange, in: scope)
            }
        }
    }

    /// Waits for the response's delay, then hands the response to the client.
    private static func deliver(_ response: StubResponse, for request: RecordedRequest, through exchange: StubExchange) async {
        if let delay = response.delay {
            do {
                try await Task.sleep(for: delay)
            } catch {
                return // Cancelled: the request was stopped or its scope ended.
            }
        }
        exchange.complete(with: outcome(of: response, for: request))
    }

    /// The outcome `response` gives `request`.
    static func outcome(of response: StubResponse, for request: RecordedRequest) -> StubExchange.Outcome {
        switch response.kind {
        case let .http(status, headers, body):
            guard let http = HTTPURLResponse(url: request.url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers) else {
                return .failure(StubFailure.error("URLStubs: Foundation could not build a response with status \(status) for \(request).", url: request.url))
            }
            return .response(http, request.method == "HEAD" ? Data() : body)
        case let .failure(error):
            return .failure(error)
        case let .sequence(responses):
            return outcome(of: responses[0], for: request)
        case let .refused(reason):
            return .failure(StubFailure.error("URLStubs: the response computed for \(request) cannot be delivered: \(reason).", url: request.url))
        }
    }

    /// Reads `stream` to its end.
    private static func drain(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
