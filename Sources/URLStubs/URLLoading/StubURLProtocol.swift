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
///   cache) and captures the current ``StubScope`` from the task-local.
/// - ``startLoading()`` starts a Swift task that asks the registry for the answer
///   and delivers it; ``stopLoading()`` stops that delivery for good.
open class StubURLProtocol: URLProtocol {
    /// The scope current where the request was resumed, captured in `init`.
    private let capturedScope: StubScope?
    /// Delivers at most one outcome, never after `stopLoading()`.
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
    /// Creates the protocol for `request`, capturing the stub scope of the calling task.
    public required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        capturedScope = StubScope.bound
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }
    #else
    /// Creates the protocol for `request`, capturing the stub scope of the calling task.
    override public init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        capturedScope = StubScope.bound
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }
    #endif

    /// Hands the request to the stub registry, whose answer is delivered
    /// asynchronously.
    ///
    /// On Linux, Foundation calls this again on the session's work queue once the
    /// answer is ready (see ``StubExchange``); that call delivers it.
    override open func startLoading() {
        if let exchange {
            if exchange.deliverIfReady() || exchange.isWaiting {
                return
            }
            // Stopped by a suspend, now resumed: answer the request anew.
        }
        let exchange = StubExchange(urlProtocol: self)
        self.exchange = exchange
        let request = self.request
        if let unsupported = unsupportedTaskKind {
            let message = StubFailure.unsupportedTaskMessage(request, kind: unsupported)
            exchange.complete(with: .failure(StubFailure.error(message, url: request.url)), isOnWorkQueue: true)
            return
        }
        let scope = capturedScope
        exchange.attach(Task {
            await StubURLProtocol.answer(request, in: scope, through: exchange)
        })
    }

    /// Stops the delivery of the answer; nothing reaches the client afterwards.
    override open func stopLoading() {
        exchange?.stop()
    }

    /// The kind of task Foundation on Linux cannot complete through a URL protocol.
    private var unsupportedTaskKind: String? {
        #if canImport(FoundationNetworking)
        if task is URLSessionDownloadTask { return "download task" }
        if task is URLSessionWebSocketTask { return "WebSocket task" }
        #endif
        return nil
    }

    /// Resolves `request` in the registry and delivers the outcome.
    static func answer(_ request: URLRequest, in scope: StubScope?, through exchange: StubExchange) async {
        let body = request.httpBody ?? request.httpBodyStream.map(drain)
        let target = request.url.flatMap(RequestTarget.init)
        let registry = StubRegistry.shared
        let resolution = await registry.resolve(request, body: body, target: target, scope: scope, exchange: exchange)
        switch resolution {
        case let .fail(error):
            exchange.complete(with: .failure(error))
        case let .respond(response, recorded):
            await deliver(response, for: recorded, through: exchange)
            if response.delay != nil {
                await registry.settle(exchange, in: scope)
            }
        case let .compute(respond, recorded):
            do {
                let response = try await respond(recorded)
                await deliver(response, for: recorded, through: exchange)
            } catch {
                exchange.complete(with: .failure(error))
            }
            await registry.settle(exchange, in: scope)
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
