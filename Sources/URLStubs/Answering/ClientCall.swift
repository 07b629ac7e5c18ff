#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One call to a URL protocol's client: the pieces an answer is delivered in.
///
/// Foundation takes them in one order: exactly one ``receive(_:)``, any number of
/// ``load(_:)``, one ``finish``; or one ``fail(_:)`` at any point; on Apple
/// platforms a redirect may come first.
enum ClientCall: Sendable {
    #if !canImport(FoundationNetworking)
    /// The request is redirected: Foundation asks the session's delegate, and loads
    /// the new request with a new protocol if the redirect is followed. (On Linux
    /// this call stops the process; redirects are followed inside the scope there.)
    case redirect(URLRequest, HTTPURLResponse)
    #endif
    /// The response's status and header fields.
    case receive(HTTPURLResponse)
    /// A piece of the body.
    case load(Data)
    /// The body is complete.
    case finish
    /// The request failed.
    case fail(any Error)

    /// Whether nothing may follow the call.
    var isLast: Bool {
        switch self {
        case .finish, .fail: true
        case .receive, .load: false
        #if !canImport(FoundationNetworking)
        case .redirect: false
        #endif
        }
    }

    /// Whether the call carries a piece of the body.
    var isPiece: Bool {
        if case .load = self { return true }
        return false
    }

    /// Makes the call on `client`, for `urlProtocol`.
    func make(to client: any URLProtocolClient, from urlProtocol: URLProtocol) {
        switch self {
        case let .receive(response):
            client.urlProtocol(urlProtocol, didReceive: response, cacheStoragePolicy: .notAllowed)
        case let .load(data):
            client.urlProtocol(urlProtocol, didLoad: data)
        case .finish:
            client.urlProtocolDidFinishLoading(urlProtocol)
        case let .fail(error):
            client.urlProtocol(urlProtocol, didFailWithError: error)
        #if !canImport(FoundationNetworking)
        case let .redirect(request, response):
            client.urlProtocol(urlProtocol, wasRedirectedTo: request, redirectResponse: response)
        #endif
        }
    }
}

extension Answer {
    /// The client calls that deliver a whole answer; a stream's header only (its
    /// pieces are made as it plays).
    ///
    /// A redirect that reaches the client (the scope follows it itself on Linux and
    /// for direct answers) is reported on Apple platforms as Apple's own URL
    /// protocol sample does: the redirect, then the load of this protocol ends with
    /// `NSUserCancelledError`; Foundation loads the next request with a new
    /// protocol, or, if the session's delegate refuses the redirect, ends the task
    /// with that error. (Delivering the redirect response instead races
    /// Foundation's own following, rdar://39391319.)
    var calls: [ClientCall] {
        switch self {
        case let .response(response, body):
            return Self.whole(response, body)
        case let .stream(response, _):
            return [.receive(response)]
        case let .redirect(response, body, next):
            #if canImport(FoundationNetworking)
            _ = next
            return Self.whole(response, body) // Not reached: followed inside the scope.
            #else
            _ = body
            return [.redirect(next, response), .fail(CocoaError(.userCancelled))]
            #endif
        case let .failure(error):
            return [.fail(error)]
        }
    }

    /// The calls that deliver `response` and its whole `body`.
    private static func whole(_ response: HTTPURLResponse, _ body: Data) -> [ClientCall] {
        body.isEmpty ? [.receive(response), .finish] : [.receive(response), .load(body), .finish]
    }
}
