import Foundation

/// An HTTP Archive (HAR 1.2) as URLStubs reads and writes it.
///
/// Writing fills every field the format requires, in a stable order. Reading is
/// lenient: files exported by browsers, Charles or Proxyman carry many more fields
/// (ignored) and sometimes omit required ones (given defaults), and only what
/// replaying needs must be present: each entry's request method and URL, and its
/// response status.
struct HARFile: Codable {
    var log: Log

    struct Log: Codable {
        var version = "1.2"
        var creator = Creator()
        var entries: [Entry]

        init(entries: [Entry]) {
            self.entries = entries
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try container.decodeIfPresent(String.self, forKey: .version) ?? "1.2"
            creator = try container.decodeIfPresent(Creator.self, forKey: .creator) ?? Creator()
            // Required: a file without it (`"entires"`, say) is not taken as empty,
            // which `.recordMissing` would write over.
            entries = try container.decode([Entry].self, forKey: .entries)
        }
    }

    struct Creator: Codable {
        var name = "URLStubs"
        var version = "1"
    }

    struct Entry: Codable {
        /// Fixed unless a recording asks for real times, so re-recording the same
        /// exchanges gives the same file.
        var startedDateTime = "1970-01-01T00:00:00.000Z"
        var time: Double = 0
        var request: Request
        var response: Response
        var cache = Cache()
        var timings = Timings()

        init(request: Request, response: Response) {
            self.request = request
            self.response = response
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            request = try container.decode(Request.self, forKey: .request)
            response = try container.decode(Response.self, forKey: .response)
            startedDateTime = try container.decodeIfPresent(String.self, forKey: .startedDateTime) ?? "1970-01-01T00:00:00.000Z"
            time = try container.decodeIfPresent(Double.self, forKey: .time) ?? 0
        }
    }

    struct Request: Codable {
        var method: String
        var url: String
        var httpVersion = "HTTP/1.1"
        var cookies: [Cookie] = []
        var headers: [NameValue]
        var queryString: [NameValue]
        var postData: PostData?
        var headersSize = -1
        var bodySize: Int

        init(method: String, url: String, headers: [NameValue], queryString: [NameValue], postData: PostData?, bodySize: Int) {
            self.method = method
            self.url = url
            self.headers = headers
            self.queryString = queryString
            self.postData = postData
            self.bodySize = bodySize
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            method = try container.decode(String.self, forKey: .method)
            url = try container.decode(String.self, forKey: .url)
            httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP/1.1"
            headers = try container.decodeIfPresent([NameValue].self, forKey: .headers) ?? []
            queryString = try container.decodeIfPresent([NameValue].self, forKey: .queryString) ?? []
            postData = try container.decodeIfPresent(PostData.self, forKey: .postData)
            bodySize = try container.decodeIfPresent(Int.self, forKey: .bodySize) ?? -1
        }
    }

    struct Response: Codable {
        var status: Int
        var statusText: String
        var httpVersion = "HTTP/1.1"
        var cookies: [Cookie] = []
        var headers: [NameValue]
        var content: Content
        var redirectURL = ""
        var headersSize = -1
        var bodySize: Int
        /// Why the request failed instead (status 0), as browsers write it.
        var error: String?
        /// The `URLError` code of that failure (a URLStubs extension).
        var errorCode: Int?

        enum CodingKeys: String, CodingKey {
            case status, statusText, httpVersion, cookies, headers, content, redirectURL, headersSize, bodySize
            case error = "_error"
            case errorCode = "_errorCode"
        }

        init(status: Int, statusText: String, headers: [NameValue], content: Content, bodySize: Int, error: String?, errorCode: Int? = nil) {
            self.status = status
            self.statusText = statusText
            self.headers = headers
            self.content = content
            self.bodySize = bodySize
            self.error = error
            self.errorCode = errorCode
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            status = try container.decode(Int.self, forKey: .status)
            statusText = try container.decodeIfPresent(String.self, forKey: .statusText) ?? ""
            httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP/1.1"
            headers = try container.decodeIfPresent([NameValue].self, forKey: .headers) ?? []
            content = try container.decodeIfPresent(Content.self, forKey: .content) ?? Content(size: 0, mimeType: "", text: nil, encoding: nil)
            redirectURL = try container.decodeIfPresent(String.self, forKey: .redirectURL) ?? ""
            bodySize = try container.decodeIfPresent(Int.self, forKey: .bodySize) ?? -1
            error = try container.decodeIfPresent(String.self, forKey: .error)
            errorCode = try container.decodeIfPresent(Int.self, forKey: .errorCode)
        }
    }

    struct NameValue: Codable, Equatable {
        var name: String
        var value: String
    }

    /// Cookies are carried by the `Cookie` and `Set-Cookie` headers; the parsed
    /// lists are written empty and ignored on reading.
    struct Cookie: Codable {}

    struct PostData: Codable {
        var mimeType: String
        var text: String
        /// `base64` for a body that is not UTF-8 text (an extension many tools use).
        var encoding: String?

        init(mimeType: String, text: String, encoding: String?) {
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
            text = try container.decodeIfPresent(String.self, forKey: .text) ?? ""
            encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
        }
    }

    struct Content: Codable {
        var size: Int
        var mimeType: String
        var text: String?
        var encoding: String?

        init(size: Int, mimeType: String, text: String?, encoding: String?) {
            self.size = size
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            size = try container.decodeIfPresent(Int.self, forKey: .size) ?? -1
            mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
            text = try container.decodeIfPresent(String.self, forKey: .text)
            encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
        }
    }

    struct Cache: Codable {}

    struct Timings: Codable {
        var send: Double = 0
        var wait: Double = 0
        var receive: Double = 0
    }
}
