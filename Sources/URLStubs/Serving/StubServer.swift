#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A scope served over HTTP/1.1 on the loopback interface, for clients a URL
/// protocol cannot reach: another process (the app of a UI test), a client that
/// is not `URLSession`, a session the test cannot configure.
///
/// Made by ``StubScope/serve(as:limits:)``. Every request it receives is resolved
/// exactly as a request made in its scope through a stubbed `URLSession`: the
/// scope's stubs, then its enclosing scopes', then the global scope's, with the
/// same matching, uses, sequences, scenarios, faults, delays, request log and
/// near-miss report. A request no stub answers gets a `599` answer whose body is
/// that report (see ``noStubStatus``) and is a problem of the scope, as always.
///
/// The server listens on `127.0.0.1` (and `[::1]` where available) on a port of
/// its own, so scopes served in parallel never see each other's requests. It
/// stops when its scope ends (requests still waiting then get the scope's
/// failure, and every connection closes), or earlier with ``stop()``.
public final class StubServer: Sendable {
    /// The status of URLStubs's own answer to a request that no stub answered (or
    /// whose stub was used up or forbids it, or whose scope ended first): `599`.
    ///
    /// Outside the statuses HTTP registers, so that it cannot be mistaken for an
    /// answer a real server gives (unlike `404` or `501`), yet a server error to
    /// every client (RFC 9110 reads an unknown `5xx` as `500`). The body is the
    /// same text a stubbed `URLSession` fails with, and the header field
    /// `X-URLStubs-Failure` carries its first line, so that a UI test's log says
    /// why at a glance.
    public static let noStubStatus = 599

    /// The scope whose stubs answer.
    public let scope: StubScope
    /// The base URL to give the client: `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// The same server over IPv6, `http://[::1]:<port>`; `nil` where the machine
    /// has no IPv6 loopback.
    public let ipv6BaseURL: URL?
    /// The port the server listens on, chosen by the system.
    public let port: UInt16
    /// The origin the server stands in for, as given to ``StubScope/serve(as:limits:)``.
    public let origin: URL?
    /// The limits every client is held to.
    public let limits: ServingLimits
    /// ``origin`` as the start of a request's URL, without a trailing slash.
    let originPrefix: String?

    private struct Connection {
        let descriptor: Int32
        /// Whether it waits for (or reads) a request, rather than answering one.
        var isReading: Bool
        /// The task producing its deferred answer, if any.
        var work: Task<Void, Never>?
    }

    private struct State {
        var isStopped = false
        /// Whether ``start()`` started the accept thread, which closes the
        /// listening sockets when the server stops.
        var isAccepting = false
        var connections: [Int: Connection] = [:]
        var nextConnection = 0
    }

    private let state = Locked(State())
    private let listener: ListenerSocket
    /// The pipe that wakes the accept thread to stop: read end, write end.
    private let wake: (read: Int32, write: Int32)
    /// Signalled by the accept thread once it closed the listening sockets.
    private let acceptEnded = DispatchSemaphore(value: 0)

    init(scope: StubScope, origin: URL?, limits: ServingLimits) throws(ServingError) {
        let listener: ListenerSocket
        do {
            listener = try ListenerSocket.open(backlog: Int32(min(limits.connections, 1_024)))
        } catch {
            throw ServingError(ServingMessages.socketFailed(error.call, code: error.code))
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            listener.close()
            throw ServingError(ServingMessages.socketFailed("pipe", code: SocketPlatform.lastError))
        }
        for end in pipeEnds {
            SocketPlatform.closeOnExec(end)
        }
        self.scope = scope
        self.origin = origin
        originPrefix = origin.map { $0.absoluteString.hasSuffix("/") ? String($0.absoluteString.dropLast()) : $0.absoluteString }
        self.limits = limits
        self.listener = listener
        self.wake = (pipeEnds[0], pipeEnds[1])
        port = listener.port
        baseURL = URL(string: "http://127.0.0.1:\(listener.port)")!
        ipv6BaseURL = listener.ipv6 == nil ? nil : URL(string: "http://[::1]:\(listener.port)")
    }

    /// Starts accepting connections, on a thread of the server's own.
    func start() {
        let starts = state.withLock { state in
            guard !state.isStopped, !state.isAccepting else { return false }
            state.isAccepting = true
            return true
        }
        guard starts else { return }
        let thread = Thread { [self] in acceptConnections() }
        thread.name = "URLStubs server :\(port)"
        thread.start()
    }

    /// Whether the server still accepts connections.
    public var isRunning: Bool {
        state.withLock { !$0.isStopped }
    }

    /// Stops the server: closes its listening sockets (before returning) and every
    /// connection as soon as the request it is answering (if any) is answered;
    /// requests still waiting for a deferred answer are cancelled, and their
    /// connections dropped. Calling it again does nothing.
    ///
    /// The server stops by itself when its scope ends.
    public func stop() {
        let working = state.withLock { state -> (work: [Task<Void, Never>], isAccepting: Bool)? in
            guard !state.isStopped else { return nil }
            state.isStopped = true
            for connection in state.connections.values where connection.isReading {
                // Wakes the connection's thread, which closes it. Under the lock: a
                // connection leaves the table before its descriptor is closed, so the
                // number cannot have been reused for another socket (another
                // server's, in a suite serving many scopes at once).
                _ = shutdown(connection.descriptor, Int32(SHUT_RDWR))
            }
            return (state.connections.values.compactMap(\.work), state.isAccepting)
        }
        guard let working else { return }
        guard working.isAccepting else {
            // Never started: no accept thread waits to close the sockets, so they
            // are closed here (and waiting for that thread would never end).
            closeListening()
            return
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        for work in working.work {
            work.cancel()
        }
        acceptEnded.wait()
    }

    /// Closes the listening sockets and the wake pipe.
    private func closeListening() {
        listener.close()
        _ = Glue.close(wake.read)
        _ = Glue.close(wake.write)
    }

    /// The accept thread: waits for connections and for the stop, then closes the
    /// listening sockets.
    private func acceptConnections() {
        let descriptors = listener.descriptors + [wake.read]
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        loop: while true {
            let ready = poll(&entries, nfds_t(entries.count), -1)
            guard ready >= 0 || SocketPlatform.lastError == EINTR else { break }
            if entries.last!.revents != 0 {
                break
            }
            for index in entries.indices.dropLast() where entries[index].revents != 0 {
                while let descriptor = ListenerSocket.accept(on: entries[index].fd) {
                    guard admit(descriptor) else { break loop }
                }
            }
        }
        closeListening()
        acceptEnded.signal()
    }

    /// Hands a new connection to a thread of its own, or refuses it when the
    /// server is full; `false` once the server stopped.
    private func admit(_ descriptor: Int32) -> Bool {
        enum Admission { case stopped, full, admitted(Int) }
        let admission = state.withLock { state -> Admission in
            guard !state.isStopped else { return .stopped }
            guard state.connections.count < limits.connections else { return .full }
            let id = state.nextConnection
            state.nextConnection += 1
            state.connections[id] = Connection(descriptor: descriptor, isReading: true)
            return .admitted(id)
        }
        switch admission {
        case .stopped:
            _ = Glue.close(descriptor)
            return false
        case .full:
            let socket = ConnectionSocket(descriptor: descriptor)
            socket.limitSends(to: .milliseconds(100))
            _ = socket.send(ResponseWriter.own(status: 503, text: ServingMessages.tooManyConnections(limit: limits.connections), closes: true))
            _ = Glue.close(descriptor)
            return true
        case let .admitted(id):
            let thread = Thread { [self] in
                var connection = ServedConnection(server: self, id: id, socket: ConnectionSocket(descriptor: descriptor))
                connection.run()
                // Out of the table first: stop() only touches descriptors in it.
                state.withLock { _ = $0.connections.removeValue(forKey: id) }
                _ = Glue.close(descriptor)
            }
            thread.name = "URLStubs connection :\(port)"
            thread.start()
            return true
        }
    }

    /// Marks connection `id` as waiting for its next request; `false` when the
    /// server stopped, and the connection must close.
    func beginReading(_ id: Int) -> Bool {
        state.withLock { state in
            guard !state.isStopped else { return false }
            state.connections[id]?.isReading = true
            state.connections[id]?.work = nil
            return true
        }
    }

    /// Marks connection `id` as answering a request (a stop lets it finish).
    func beginAnswering(_ id: Int) {
        state.withLock { $0.connections[id]?.isReading = false }
    }

    /// Records the task producing connection `id`'s deferred answer, for a stop to
    /// cancel; `false` (and the task is to be cancelled) when the server stopped.
    func answering(_ id: Int, with work: Task<Void, Never>) -> Bool {
        state.withLock { state in
            guard !state.isStopped else { return false }
            state.connections[id]?.work = work
            return true
        }
    }
}

/// Why a scope could not be served.
public struct ServingError: Error, CustomStringConvertible, Equatable {
    /// What went wrong, and what to do about it.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
