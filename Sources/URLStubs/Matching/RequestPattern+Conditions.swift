#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Conditions that narrow a pattern; each returns a new pattern.
extension RequestPattern {
    /// Also requires the query item `name`, with the value `value` when it is given.
    ///
    /// Other query items may be present.
    public func query(_ name: String, _ value: String? = nil) -> RequestPattern {
        adding(.query(name: name, value: value))
    }

    /// Also requires the header field `name` (compared case-insensitively), with
    /// exactly the value `value` when it is given.
    public func header(_ name: String, _ value: String? = nil) -> RequestPattern {
        adding(.header(name: name, value: value))
    }

    /// Also requires the body to be exactly `data`.
    public func body(_ data: Data) -> RequestPattern {
        adding(.body(data))
    }

    /// Also requires the body to be exactly `text` encoded as UTF-8.
    public func body(_ text: String) -> RequestPattern {
        adding(.body(Data(text.utf8)))
    }

    /// Also requires the body to contain `text` (as UTF-8).
    public func bodyContains(_ text: String) -> RequestPattern {
        adding(.bodyContains(text))
    }

    /// Also requires the body to be JSON equal to `value` encoded as JSON, whatever
    /// the order of object keys and the whitespace.
    ///
    /// A value that cannot be encoded makes the pattern malformed.
    public func jsonBody(_ value: some Encodable, encoder: JSONEncoder = JSONEncoder()) -> RequestPattern {
        do {
            let data = try encoder.encode(value)
            guard let canonical = JSONCanonical.data(data) else {
                return failing("the expected JSON body could not be re-read as JSON")
            }
            return adding(.jsonBody(canonical: canonical, display: String(decoding: canonical, as: UTF8.self)))
        } catch {
            return failing("the expected JSON body could not be encoded: \(error)")
        }
    }

    /// Also requires `predicate` to return `true` for the request.
    ///
    /// The request it is given carries the parameters this pattern's URL template
    /// captured (``RecordedRequest/pathParameters``), so
    /// `.get("https://api.example.com/users/{id}").matching("a numeric id") { Int($0.pathParameters["id"] ?? "") != nil }`
    /// reads the id, wherever the pattern is used: a stub, a pattern waited for or
    /// given to `injectFaults`, `requests(matching:)`. After `.or`, they are those of
    /// the alternative that matched; a predicate inside `.not` or `excluding` sees
    /// those of its own pattern only. `description` names the condition in failure
    /// reports.
    public func matching(_ description: String, _ predicate: @escaping @Sendable (RecordedRequest) -> Bool) -> RequestPattern {
        adding(.predicate(Predicate(description, predicate)))
    }

    func adding(_ condition: Condition) -> RequestPattern {
        var copy = self
        copy.conditions.append(condition)
        return copy
    }

    func failing(_ problem: String) -> RequestPattern {
        var copy = self
        copy.problem = copy.problem ?? problem
        return copy
    }
}
