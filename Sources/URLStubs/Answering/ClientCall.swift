#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One call to a URL protocol's client: the pieces an answer is delivered in.
///
/// Foundation takes them in one order: exactly one ``receive(_:)``, any number of
/// ``load(_:)``, one ``finish``; or one ``fail(_:)`` at any point.
enum ClientCall: Sendable {
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
        }
    }
}

extension Answer {
    /// The client calls that deliver a whole answer; a stream's are made as it
    /// plays.
    var calls: [ClientCall] {
        switch self {
        case let .response(response, body):
            body.isEmpty ? [.receive(response), .finish] : [.receive(response), .load(body), .finish]
        case let .stream(response, _):
            [.receive(response)]
        case let .failure(error):
            [.fail(error)]
        }
    }
}
