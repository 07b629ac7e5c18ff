#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One client connection of a served scope, on a thread of its own: reads each
/// request (keep-alive and pipelining: one after the other), has the scope answer
/// it, writes the answer, until the client closes, a limit is reached, a request
/// is refused, or the server stops.
struct ServedConnection {
    let server: StubServer
    let id: Int
    var socket: ConnectionSocket

    private var limits: ServingLimits {
        server.limits
    }

    /// Serves requests until the connection should close.
    mutating func run() {
        socket.limitSends(to: limits.idleTimeout)
        while server.beginReading(id) {
            guard serveOne() else { return }
        }
    }

    /// Reads, answers and writes one request; `false` when the connection must close.
    private mutating func serveOne() -> Bool {
        let exchange: ServedExchange
        switch read() {
        case let .request(request):
            exchange = request
        case let .refused(rejection):
            _ = socket.send(ResponseWriter.own(status: rejection.status, text: rejection.reason, closes: true))
            socket.closeGently()
            return false
        case .closed:
            return false
        }
        server.beginAnswering(id)
        let closes = exchange.head.closesConnection
        let answered: Bool
        switch DirectAnswer.start(exchange.urlRequest, body: exchange.body, in: server.scope, followingRedirects: false) {
        case let .answered(answer):
            answered = exchange.bytes(of: answer, closes: closes).map { socket.send($0) } ?? false
        case let .producing(pending, resolution, follower):
            answered = waitForAnswer(of: exchange, from: pending, resolution: resolution, following: follower, closes: closes)
        }
        if answered, closes {
            // Ended as a refusal is: a client that sent more (a pipelined request)
            // would otherwise get a reset, and lose the answer's bytes it had not
            // read yet.
            socket.closeGently()
        }
        return answered && !closes
    }

    private enum Reading {
        case request(ServedExchange)
        case refused(RequestRejection)
        case closed
    }

    /// Reads the next request, head and body, holding it to the limits.
    private mutating func read() -> Reading {
        let headTimeout = limits.headTimeout
        let received: (bytes: ArraySlice<UInt8>, bareLineFeed: Bool)
        do {
            received = try socket.head(limit: limits.headBytes, idle: .now + limits.idleTimeout) { $0 + headTimeout }
        } catch .timedOut {
            // Silence on an idle connection just closes it; half a head is a slow client.
            return socket.hasStartOfRequest ? .refused(RequestRejection(status: 408, reason: ServingMessages.headTimeout)) : .closed
        } catch .tooLong {
            return .refused(socket.isRequestLineLonger(than: limits.headBytes)
                ? RequestRejection(status: 414, reason: ServingMessages.requestLineTooLong(limit: limits.headBytes))
                : RequestRejection(status: 431, reason: ServingMessages.headTooLarge(limit: limits.headBytes)))
        } catch {
            return .closed
        }
        if received.bareLineFeed {
            return .refused(.malformed(ServingMessages.bareLineFeed))
        }
        do throws(RequestRejection) {
            let head = try RequestParser.head(received.bytes, limits: limits)
            let url = try checkTarget(of: head)
            let framing = try RequestParser.framing(of: head, limits: limits)
            // Every expectation of every Expect field must be 100-continue. An
            // HTTP/1.0 client is never sent an interim answer (RFC 9110, sections
            // 10.1.1 and 15.2): its expectation is ignored.
            let expectations = head.values(of: "Expect")
                .flatMap { $0.split(separator: ",") }
                .map { String($0.trimmingSpaces) }
                .filter { !$0.isEmpty }
            if head.version == "HTTP/1.1", !expectations.isEmpty {
                if let other = expectations.first(where: { !$0.equalsIgnoringASCIICase("100-continue") }) {
                    throw RequestRejection(status: 417, reason: ServingMessages.expectation(other))
                }
                if framing != .none, !socket.hasBuffered {
                    guard socket.send(ResponseWriter.continueHead) else { return .closed }
                }
            }
            guard let body = try readBody(framing) else { return .closed }
            return .request(ServedExchange(head: head, body: body, url: url, origin: server.origin, baseURL: server.baseURL))
        } catch {
            return .refused(error)
        }
    }

    /// Checks that the request names this server (one `Host`, a loopback name with
    /// the server's port; the same for an absolute target) and returns the URL the
    /// scope sees.
    private func checkTarget(of head: RequestHead) throws(RequestRejection) -> URL {
        let hosts = head.values(of: "Host")
        // HTTP/1.0 has no Host field of its own: a request without one names this
        // server. (Browsers, whose pages DNS rebinding would use, always send one.)
        guard let host = hosts.first ?? (head.version == "HTTP/1.0" ? "127.0.0.1:\(server.port)" : nil) else {
            throw .malformed(ServingMessages.missingHost)
        }
        guard hosts.count <= 1 else { throw .malformed(ServingMessages.severalHosts) }
        guard LoopbackHost.isAccepted(host, port: server.port) else {
            throw RequestRejection(status: 421, reason: ServingMessages.foreignHost(host, port: server.port))
        }
        var path = head.target
        if !path.hasPrefix("/"), let (authority, absolutePath) = LoopbackHost.split(absolute: head.target) {
            guard LoopbackHost.isAccepted(authority, port: server.port) else {
                throw RequestRejection(status: 421, reason: ServingMessages.foreignHost(authority, port: server.port))
            }
            path = absolutePath
        }
        let origin = server.originPrefix ?? "http://\(host.lowercased())"
        guard let url = URL(string: origin + path), url.host != nil else {
            throw .malformed(ServingMessages.badURL(head.target))
        }
        return url
    }

    /// Reads the body `framing` announces, within the body timeout; `nil` when the
    /// connection closed.
    private mutating func readBody(_ framing: RequestParser.Framing) throws(RequestRejection) -> Data? {
        let deadline = ContinuousClock.now + limits.bodyTimeout
        do {
            switch framing {
            case .none:
                return Data()
            case let .length(count):
                return Data(try socket.bytes(count, until: deadline))
            case .chunked:
                var body = Data()
                while true {
                    let line: (bytes: ArraySlice<UInt8>, bareLineFeed: Bool)
                    do {
                        line = try socket.line(limit: 4_096, until: deadline)
                    } catch .tooLong {
                        throw RequestRejection.malformed(ServingMessages.chunkLineTooLong)
                    }
                    guard !line.bareLineFeed else { throw RequestRejection.malformed(ServingMessages.chunkedBareLineFeed) }
                    let size = try RequestParser.chunkSize(line.bytes)
                    guard size <= limits.bodyBytes - body.count else {
                        throw RequestRejection(status: 413, reason: ServingMessages.bodyTooLarge(limit: limits.bodyBytes))
                    }
                    if size == 0 {
                        try skipTrailers(until: deadline)
                        return body
                    }
                    body.append(contentsOf: try socket.bytes(size, until: deadline))
                    guard try socket.bytes(2, until: deadline).elementsEqual([13, 10]) else {
                        throw RequestRejection.malformed(ServingMessages.chunkEnd)
                    }
                }
            }
        } catch let end as ConnectionSocket.ReadEnd {
            switch end {
            case .timedOut:
                throw RequestRejection(status: 408, reason: ServingMessages.bodyTimeout)
            case .tooLong: // Only the trailer section reaches here: a chunk-size line's own limit is caught above.
                throw RequestRejection(status: 431, reason: ServingMessages.trailersTooLarge(limit: limits.headBytes, count: limits.headerCount))
            case .closed:
                return nil
            }
        } catch let rejection as RequestRejection {
            throw rejection
        } catch {
            return nil
        }
    }

    /// Reads and drops a chunked body's trailer lines, held to the head's rules
    /// and limits: throws a `RequestRejection` for a malformed line, and
    /// `ReadEnd.tooLong` past the limits (or how else reading ended).
    private mutating func skipTrailers(until deadline: ContinuousClock.Instant) throws {
        var count = 0
        var bytes = 0
        while true {
            let line = try socket.line(limit: limits.headBytes, until: deadline)
            guard !line.bareLineFeed else { throw RequestRejection.malformed(ServingMessages.chunkedBareLineFeed) }
            guard !line.bytes.isEmpty else { return }
            count += 1
            bytes += line.bytes.count
            guard count <= limits.headerCount, bytes <= limits.headBytes else { throw ConnectionSocket.ReadEnd.tooLong }
            try RequestParser.trailer(line.bytes)
        }
    }

    /// Waits for a deferred answer on this thread, writing a stream's pieces as
    /// they come; cancels it when the client goes away (closes its side, even
    /// only its sending side: see ``ConnectionSocket/isClientGone()``). Returns whether the
    /// connection may serve another request.
    private func waitForAnswer(
        of exchange: ServedExchange,
        from pending: DirectAnswer,
        resolution: StubRegistry.Resolution,
        following follower: RedirectFollower,
        closes: Bool
    ) -> Bool {
        let outbox = ServedOutbox()
        let request = exchange.urlRequest
        let work = Task.detached {
            let answer = await pending.produce(resolution, following: follower, for: request) { answer in
                guard case let .stream(response, playback) = answer else { return answer }
                guard outbox.post(.head(response)) else { return nil }
                switch await playback.play(into: { piece in outbox.post(.piece(piece)) }) {
                case .finished?:
                    return .response(response, Data())
                case let .failed(error)?:
                    return .failure(error)
                case nil:
                    return nil
                }
            }
            outbox.post(.done(answer))
        }
        guard server.answering(id, with: work) else {
            work.cancel()
            // The stop cancelled it or will: its answer still comes through the outbox.
            return drain(outbox, work: work, exchange: exchange, closes: true) && false
        }
        return drain(outbox, work: work, exchange: exchange, closes: closes)
    }

    /// Writes what the outbox receives until the final answer; `false` when the
    /// connection must close.
    private func drain(_ outbox: ServedOutbox, work: Task<Void, Never>, exchange: ServedExchange, closes: Bool) -> Bool {
        // How a stream's body goes out, once its head went.
        var streamBody: ServedExchange.StreamBody?
        /// Ends the connection with the answer cut short: a body that runs to the
        /// close (HTTP/1.0) is reset, so that it does not look whole.
        func cutOff() -> Bool {
            if streamBody == .untilClose {
                socket.resetOnClose()
            }
            return false
        }
        func giveUp() -> Bool {
            work.cancel()
            outbox.close()
            return cutOff()
        }
        while true {
            guard let events = outbox.take(waiting: .milliseconds(50)) else {
                if socket.isClientGone() {
                    return giveUp()
                }
                continue
            }
            for event in events {
                switch event {
                case let .head(response):
                    let body = exchange.streamBody(of: response)
                    streamBody = body
                    guard socket.send(exchange.streamHead(of: response, body: body, closes: closes)) else { return giveUp() }
                case let .piece(piece):
                    switch streamBody {
                    case .chunked?:
                        guard piece.isEmpty || socket.send(ResponseWriter.chunk(piece)) else { return giveUp() }
                    case .untilClose?:
                        guard piece.isEmpty || socket.send(Array(piece)) else { return giveUp() }
                    case .none?, nil:
                        break // A status with no body: its pieces are dropped, not sent as the next response.
                    }
                case let .done(answer):
                    if let streamBody {
                        // A stream that fails after its head went out can only be cut off.
                        guard case .response = answer else { return cutOff() }
                        switch streamBody {
                        case .chunked:
                            return socket.send(ResponseWriter.lastChunk)
                        case .untilClose, .none:
                            return true // An HTTP/1.0 request closes: the close ends the body.
                        }
                    }
                    guard let bytes = exchange.bytes(of: answer, closes: closes) else { return false }
                    return socket.send(bytes)
                }
            }
        }
    }
}
