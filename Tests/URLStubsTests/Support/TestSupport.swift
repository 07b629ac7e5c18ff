#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import URLStubs

/// A tiny URLSession-based API client of the kind the package is meant to test.
struct UserClient: Sendable {
    struct User: Codable, Equatable, Sendable {
        var id: Int
        var name: String
    }

    var session: URLSession = .stubbed
    var baseURL = URL(string: "https://api.example.com")!

    func user(id: Int) async throws -> User {
        let (data, response) = try await session.data(from: baseURL.appendingPathComponent("users/\(id)"))
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw URLError(.badServerResponse)
        }
        return try JSONDecoder().decode(User.self, from: data)
    }

    func create(_ user: User) async throws -> User {
        var request = URLRequest(url: baseURL.appendingPathComponent("users"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(user)
        let (data, _) = try await session.data(for: request)
        return try JSONDecoder().decode(User.self, from: data)
    }
}

/// Performs `request` with a completion-handler data task.
func completionHandlerData(
    for request: URLRequest,
    session: URLSession = .stubbed
) async -> (Data?, URLResponse?, (any Error)?) {
    await withCheckedContinuation { continuation in
        session.dataTask(with: request) { data, response, error in
            continuation.resume(returning: (data, response, error))
        }.resume()
    }
}

extension HTTPURLResponse {
    /// The status code of `response`, or -1 when it is not an HTTP response.
    static func status(of response: URLResponse?) -> Int {
        (response as? HTTPURLResponse)?.statusCode ?? -1
    }
}

/// The `URLError` in `error`, if it is one.
func urlError(_ error: (any Error)?) -> URLError? {
    error as? URLError
}

/// The error of type `type` that `body` throws, or `nil` when it throws none (or
/// another type).
///
/// For checks nested inside `#expect(throws:)`, which cannot nest itself.
func thrownError<E: Error>(_ type: E.Type, _ body: () async throws -> Void) async -> E? {
    do {
        try await body()
        return nil
    } catch {
        return error as? E
    }
}

/// A value shared between a test and the closures it hands to other tasks.
final class Shared<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }

    /// Changes the value in place, in one critical section.
    func mutate(_ change: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(&stored)
    }
}

/// Sends a GET for `url` through the shared stubbed session and returns the body as
/// text.
func getText(_ url: String) async throws -> String {
    String(decoding: try await URLSession.stubbed.data(from: URL(string: url)!).0, as: UTF8.self)
}

/// Sends `request` through the shared stubbed session and returns the body as text,
/// or `error <code>` when it fails with a URLError (`error <error>` for any other).
func bodyTextOrError(_ request: URLRequest) async -> String {
    do {
        return String(decoding: try await URLSession.stubbed.data(for: request).0, as: UTF8.self)
    } catch let error as URLError {
        return "error \(error.code.rawValue)"
    } catch {
        return "error \(error)"
    }
}
