#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Patterns and conditions on parts of the URL: a regular expression over the whole
/// URL, the scheme, the end of the path and the file extension.
///
/// Each is a pattern of its own, for any method and host:
///
/// ```swift
/// .url(matching: #"^https://api\.example\.com/users/\d+$"#)
/// .pathSuffix("/avatar.png")
/// .fileExtension("png")
/// .scheme("http")
/// ```
///
/// and a condition that narrows another pattern:
///
/// ```swift
/// .get("https://cdn.example.com/**").fileExtension("png")
/// .host("api.example.com").pathSuffix("/export.csv")
/// ```
///
/// Bad input (an expression that does not compile, an empty suffix, a scheme
/// written with `://`) makes the pattern malformed: it never matches, and its stub
/// is reported with the reason when its scope ends.
extension RequestPattern {
    /// Matches every request whose whole URL, as Foundation sends it
    /// (`https://api.example.com/users/7?expand=true`), contains a match of the
    /// regular expression `regex` (Swift `Regex` syntax), whatever its method.
    ///
    /// The expression may match anywhere in the URL: anchor it with `^` and `$` to
    /// match the whole URL. An expression that does not compile makes the pattern
    /// malformed, with the compiler's reason.
    public static func url(matching regex: String) -> RequestPattern {
        RequestPattern.anyRequest.url(matching: regex)
    }

    /// Also requires the whole URL, as Foundation sends it, to contain a match of
    /// the regular expression `regex` (Swift `Regex` syntax); see
    /// ``url(matching:)-swift.type.method``.
    public func url(matching regex: String) -> RequestPattern {
        do {
            return adding(.urlRegex(try URLRegex(regex)))
        } catch {
            return failing(error.message)
        }
    }

    /// Matches every request whose scheme is `scheme` (`"https"`, compared
    /// case-insensitively), whatever its method, host and path.
    public static func scheme(_ scheme: String) -> RequestPattern {
        RequestPattern.anyRequest.scheme(scheme)
    }

    /// Also requires the scheme to be `scheme` (`"https"`, compared case-insensitively).
    ///
    /// Write the scheme alone: `"https"`, not `"https://"`.
    public func scheme(_ scheme: String) -> RequestPattern {
        guard URLText.isValidScheme(scheme[...]) else {
            return failing(PatternMessages.invalidSchemeCondition(scheme))
        }
        return adding(.scheme(URLText.lowercased(scheme[...]).text))
    }

    /// Matches every request whose path ends with `suffix` (`"/avatar.png"`,
    /// `".json"`), whatever its method and host.
    ///
    /// The path is compared as it is sent, percent-encoded; `suffix` is encoded the
    /// same way first, so `"/café"` and `"/caf%C3%A9"` are the same suffix. The query
    /// is not part of the path.
    public static func pathSuffix(_ suffix: String) -> RequestPattern {
        RequestPattern.anyRequest.pathSuffix(suffix)
    }

    /// Also requires the path to end with `suffix`; see ``pathSuffix(_:)-swift.type.method``.
    public func pathSuffix(_ suffix: String) -> RequestPattern {
        if let problem = PatternMessages.pathPieceProblem(suffix, kind: "path suffix") {
            return failing(problem)
        }
        let encoded = URLText.percentEncoded(suffix[...]) { URLText.isPathCharacter($0) || $0 == UInt8(ascii: "/") }
        return adding(.pathSuffix(encoded: encoded, display: suffix))
    }

    /// Matches every request whose last path segment has the file extension
    /// `fileExtension` (`"png"` or `".png"`, compared exactly, like the path),
    /// whatever its method and host.
    ///
    /// `"gz"` matches `/backup.tar.gz`, and so does `"tar.gz"`; a segment that is
    /// only the extension (`/.png`) has none.
    public static func fileExtension(_ fileExtension: String) -> RequestPattern {
        RequestPattern.anyRequest.fileExtension(fileExtension)
    }

    /// Also requires the last path segment to have the file extension
    /// `fileExtension`; see ``fileExtension(_:)-swift.type.method``.
    public func fileExtension(_ fileExtension: String) -> RequestPattern {
        let bare = fileExtension.hasPrefix(".") ? String(fileExtension.dropFirst()) : fileExtension
        if let problem = PatternMessages.pathPieceProblem(bare, kind: "file extension", written: fileExtension) {
            return failing(problem)
        }
        if bare.contains("/") {
            return failing(PatternMessages.fileExtensionWithSlash(fileExtension))
        }
        let encoded = URLText.percentEncoded(bare[...], allowing: URLText.isPathCharacter)
        return adding(.fileExtension(encoded: encoded, display: bare))
    }
}
