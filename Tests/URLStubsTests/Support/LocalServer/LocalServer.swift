import Foundation

/// A real HTTP/1.1 server on 127.0.0.1, for tests that need real traffic; every
/// request is answered by a handler.
///
/// ```swift
/// let server = try LocalServer { request in
///     ServedResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"ok":true}"#.utf8))
/// }
/// defer { server.stop() }
/// let (data, _) = try await session.data(from: server.url("/users/1?x=1"))
/// #expect(server.requests.map(\.path) == ["/users/1?x=1"])
/// ```
///
/// Connections are kept alive between requests, each on a thread of its own, and
/// closed after `connectionTimeout` seconds without a byte. The server lives in
/// the test target only; the library never depends on it.
final class LocalServer: Sendable {
    /// Answers one request; called on the thread of the request's connection.
    typealias Handler = @Sendable (ServedRequest) -> ServedResponse

    /// The port the server listens on, picked by the system.
    let port: UInt16

    /// The bookkeeping the server shares with its threads.
    private let state = ServerState()

    /// The pipe whose write end wakes the accept loop to stop; closed by ``stop()``,
    /// so that a write to it never meets a closed read end (and `SIGPIPE`).
    private let wake: (reader: Int32, writer: Int32)

    /// Starts a server on 127.0.0.1 at an ephemeral port that answers every
    /// request with `handler`.
    init(connectionTimeout: Int = 30, handler: @escaping Handler) throws {
        let (listener, port) = try Socket.listenOnLoopback()
        let wake: (reader: Int32, writer: Int32)
        do {
            wake = try Socket.makePipe()
        } catch {
            Socket.closeDescriptor(listener)
            throw error
        }
        self.port = port
        self.wake = wake
        let state = state
        let thread = Thread {
            Self.acceptConnections(
                on: listener, wake: wake.reader, state: state, timeout: connectionTimeout, handler: handler
            )
        }
        thread.name = "LocalServer :\(port) accept"
        thread.start()
    }

    /// Stops the server if the test did not.
    deinit {
        stop()
    }

    /// `http://127.0.0.1:<port>`, with no trailing slash.
    var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// The URL of `pathAndQuery` (such as `/users/1?x=1`) on this server.
    func url(_ pathAndQuery: String) -> URL {
        let slash = pathAndQuery.hasPrefix("/") ? "" : "/"
        return URL(string: baseURL.absoluteString + slash + pathAndQuery)!
    }

    /// Every request received so far, in order (a snapshot).
    var requests: [ServedRequest] {
        state.requests
    }

    /// How many client connections are open now.
    var openConnectionCount: Int {
        state.openConnectionCount
    }

    /// Stops accepting, shuts down every open connection, and waits (at most
    /// `limit` seconds) for the server's threads to finish; returns whether they
    /// did. Idempotent: a later call stops nothing more, and says at once whether
    /// they have finished.
    ///
    /// A handler that is still running is waited for, up to that limit, so do
    /// not call this from a handler.
    @discardableResult
    func stop(waitingAtMost limit: TimeInterval = 5) -> Bool {
        guard state.stop() else { return state.waitUntilFinished(before: Date()) }
        Socket.wake(wake.writer)
        // Left open when a thread is still running (a very loaded machine): the
        // accept loop may still poll the pipe, and a closed number can be reused
        // by another test's socket.
        guard state.waitUntilFinished(before: Date(timeIntervalSinceNow: limit)) else { return false }
        Socket.closeDescriptor(wake.reader)
        Socket.closeDescriptor(wake.writer)
        return true
    }

    /// The accept loop: serves each connection on a new thread until woken
    /// through `wake`, then closes the listener.
    private static func acceptConnections(
        on listener: Int32, wake: Int32, state: ServerState, timeout: Int, handler: @escaping Handler
    ) {
        defer {
            Socket.closeDescriptor(listener)
            state.acceptLoopFinished()
        }
        while Socket.waitForConnection(on: listener, wake: wake) {
            guard let descriptor = Socket.acceptConnection(on: listener) else {
                if [EINTR, EAGAIN, ECONNABORTED].contains(errno) { continue }
                return
            }
            guard let connection = state.register(descriptor) else {
                Socket.closeDescriptor(descriptor)
                return
            }
            Socket.configureConnection(descriptor, timeout: timeout)
            let thread = Thread {
                serve(descriptor, connection: connection, state: state, handler: handler)
                state.close(descriptor)
            }
            thread.name = "LocalServer connection \(connection)"
            thread.start()
        }
    }

    /// Answers the requests that come over one connection, one after another,
    /// until either side ends it.
    private static func serve(_ descriptor: Int32, connection: Int, state: ServerState, handler: Handler) {
        var reader = ConnectionReader(descriptor: descriptor)
        while true {
            let request: ServedRequest
            do {
                request = try HTTPWire.readRequest(from: &reader, connection: connection)
            } catch .malformed(let reason) {
                let refusal = ServedResponse.text(reason, status: 400)
                Socket.sendAll(HTTPWire.bytes(of: refusal, answering: "GET", keepAlive: false), on: descriptor)
                return
            } catch {
                return
            }
            state.record(request)
            let response = handler(request)
            let keepAlive = HTTPWire.keepsAlive(request, after: response)
            let bytes = HTTPWire.bytes(of: response, answering: request.method, keepAlive: keepAlive)
            let sent = Socket.sendAll(bytes, on: descriptor)
            guard sent && keepAlive else { return }
        }
    }
}
