import Foundation

/// A directory of its own for one test, removed when the test is done with it.
struct TemporaryDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("URLStubsTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Writes `har` (HAR JSON text) to `file`.
func writeHAR(_ har: String, to file: URL) throws {
    try Data(har.utf8).write(to: file)
}

/// A HAR file as a browser exports it: extra fields, no `cookies`, no
/// `queryString`, a base64 body, entries in the order they were made.
let browserExportHAR = #"""
{
  "log": {
    "version": "1.2",
    "creator": { "name": "WebInspector", "version": "537.36" },
    "pages": [{ "id": "page_1", "title": "Example" }],
    "entries": [
      {
        "_initiator": { "type": "script" },
        "pageref": "page_1",
        "startedDateTime": "2026-11-20T10:00:00.000Z",
        "time": 41.2,
        "request": {
          "method": "GET",
          "url": "https://api.example.com/items?page=1&sort=name",
          "httpVersion": "HTTP/2",
          "headers": [{ "name": "Accept", "value": "application/json" }],
          "headersSize": -1,
          "bodySize": 0
        },
        "response": {
          "status": 200,
          "statusText": "",
          "httpVersion": "HTTP/2",
          "headers": [{ "name": "content-type", "value": "application/json" }],
          "content": { "size": 13, "mimeType": "application/json", "text": "eyJwYWdlIjogMX0=", "encoding": "base64" },
          "redirectURL": "",
          "headersSize": -1,
          "bodySize": 13,
          "_transferSize": 300
        },
        "cache": {},
        "timings": { "blocked": 1, "send": 0, "wait": 40, "receive": 0.2 }
      },
      {
        "startedDateTime": "2026-11-20T10:00:01.000Z",
        "time": 12,
        "request": {
          "method": "POST",
          "url": "https://api.example.com/items",
          "httpVersion": "HTTP/2",
          "headers": [{ "name": "Content-Type", "value": "application/json" }],
          "postData": { "mimeType": "application/json", "text": "{\"name\":\"pen\",\"token\":\"URLSTUBS-REDACTED\"}" },
          "headersSize": -1,
          "bodySize": 38
        },
        "response": {
          "status": 201,
          "statusText": "Created",
          "httpVersion": "HTTP/2",
          "headers": [],
          "content": { "size": 12, "mimeType": "application/json", "text": "{\"id\": 7}" },
          "redirectURL": "",
          "headersSize": -1,
          "bodySize": 12
        },
        "cache": {},
        "timings": { "send": 0, "wait": 12, "receive": 0 }
      }
    ]
  }
}
"""#
