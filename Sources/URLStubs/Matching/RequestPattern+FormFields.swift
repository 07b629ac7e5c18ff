#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension RequestPattern {
    /// Also requires the body to be a form with the field `name`, with the value
    /// `value` when it is given (compared exactly, after decoding).
    ///
    /// ```swift
    /// .post("https://auth.example.com/token").formField("grant_type", "refresh_token")
    /// ```
    ///
    /// An `application/x-www-form-urlencoded` body (also one sent without a
    /// `Content-Type`) is read as `name=value` pairs joined by `&`, with `+` as a
    /// space and `%XX` escapes decoded; a `multipart/form-data` body is read part by
    /// part, each part's `name` and its content as UTF-8 text. Other fields may be
    /// present, and a field sent several times matches when any of its values
    /// does. An empty `name` makes the pattern malformed.
    public func formField(_ name: String, _ value: String? = nil) -> RequestPattern {
        guard !name.isEmpty else {
            return failing(PatternMessages.emptyFormFieldName)
        }
        return adding(.formField(name: name, value: value))
    }
}
