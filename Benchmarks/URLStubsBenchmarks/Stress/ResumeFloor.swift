#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A reference for failing requests that wait for a late answer: the way URLStubs
/// failed them when a scope ended until it performed late answers on the task's
/// work queue directly, done by a URL protocol that does nothing else, timed like
/// ``ScopeEndInFlight``.
///
/// On Linux a URL protocol must call its client on the task's work queue. This one
/// gets back onto it after `startLoading()` returned through the task's
/// `resume()`, which makes Foundation call `startLoading()` again there: public API
/// only, one `DispatchQueue.sync` per request. ``ParkingURLProtocol`` parks every
/// request in its first `startLoading()`, and fails it in the second; the parked
/// requests are failed by calling `resume()` on each task, one after another, from
/// one task. URLStubs now reads the work queue from Foundation's task and sends
/// the failures there (`ClientThread`). Apple platforms deliver late answers on the
/// client thread's run loop instead, so there the reference is not measured.
enum ResumeFloor {
    /// Starts `count` requests through ``ParkingURLProtocol``, waits until all are
    /// parked, fails them through `resume()`, and returns how each ended, timed from
    /// the first `resume()`.
    static func run(count: Int) async -> ScopeEndInFlight.Outcome {
        #if canImport(FoundationNetworking)
        ParkingURLProtocol.parked.withLock { $0 = [] }
        let request = BenchmarkFixtures.request(BenchmarkFixtures.sharedURL)
        var tasks: [Task<(ContinuousClock.Instant, Bool), Never>] = []
        for _ in 0..<count {
            tasks.append(Task {
                do {
                    _ = try await session.data(for: request)
                    return (ContinuousClock.now, false)
                } catch let error as URLError {
                    return (ContinuousClock.now, error.code == ParkingURLProtocol.failureCode)
                } catch {
                    return (ContinuousClock.now, false)
                }
            })
        }
        while ParkingURLProtocol.parked.withLock({ $0.count }) < count {
            try? await Task.sleep(for: .milliseconds(1))
        }
        let parked = ParkingURLProtocol.parked.withLock { parked in
            defer { parked = [] }
            return parked
        }
        let start = ContinuousClock.now
        for task in parked {
            task.resume()
        }
        return await ScopeEndInFlight.Outcome.collect(tasks, since: start)
        #else
        return ScopeEndInFlight.Outcome()
        #endif
    }

    #if canImport(FoundationNetworking)
    /// The session of the reference: `.ephemeral`, no URL cache, only the parking protocol.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.protocolClasses = [ParkingURLProtocol.self]
        return URLSession(configuration: configuration)
    }()
    #endif
}

#if canImport(FoundationNetworking)
/// A URL protocol that parks each request in its first `startLoading()` and fails
/// it in the next, which the task's `resume()` brings about.
final class ParkingURLProtocol: URLProtocol {
    /// The tasks parked so far, in order.
    static let parked = LockedValue<[URLSessionTask]>([])
    /// The code the parked requests fail with, as URLStubs' scope end fails them.
    static let failureCode = URLError.Code.resourceUnavailable

    /// Whether this protocol's request was parked already; touched only on the
    /// task's work queue, where Foundation calls `startLoading()`.
    private var hasParked = false

    /// Returns `true`: the reference's session answers every request.
    override class func canInit(with request: URLRequest) -> Bool {
        true
    }

    /// Returns `request` unchanged.
    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Parks the request the first time, fails it the next.
    override func startLoading() {
        guard hasParked else {
            hasParked = true
            if let task {
                Self.parked.withLock { $0.append(task) }
            }
            return
        }
        client?.urlProtocol(self, didFailWithError: URLError(Self.failureCode))
    }

    /// Does nothing: a parked request is only ever failed.
    override func stopLoading() {}
}
#endif
