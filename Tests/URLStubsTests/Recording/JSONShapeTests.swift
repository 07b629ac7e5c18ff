import Foundation
import Testing
@testable import URLStubs

/// The JSON shape comparison behind drift checks.
@Suite("JSON shapes")
struct JSONShapeTests {
    static func differences(stub: String, server: String) throws -> [String] {
        let stubShape = try #require(JSONShape(Data(stub.utf8)))
        let serverShape = try #require(JSONShape(Data(server.utf8)))
        return stubShape.differences(from: serverShape)
    }

    @Test("the same keys and types with other values are the same shape")
    func sameShape() throws {
        #expect(try Self.differences(stub: #"{"id": 1, "name": "Ann", "tags": ["a"], "ok": true}"#, server: #"{"ok": false, "tags": [], "name": "Bob", "id": 2}"#) == [])
    }

    @Test("missing keys, extra keys and changed types are named by path, nested in objects and arrays")
    func differences() throws {
        let stub = #"{"id": 1, "user": {"email": "a@b.c", "age": 30}, "items": [{"price": 1.5, "paid": true}]}"#
        let server = #"{"id": "1", "user": {"age": 30, "phone": "1"}, "items": [{"price": "1.50", "paid": 1}]}"#
        #expect(try Self.differences(stub: stub, server: server) == [
            "JSON: $.id is a number in the stub's answer but a string in the server's",
            "JSON: $.items[0].paid is a boolean in the stub's answer but a number in the server's",
            "JSON: $.items[0].price is a number in the stub's answer but a string in the server's",
            "JSON: $.user.email is in the stub's answer but missing from the server's",
            "JSON: $.user.phone is in the server's answer but missing from the stub's",
        ])
    }

    @Test("null on either side is not drift")
    func null() throws {
        #expect(try Self.differences(stub: #"{"a": null, "b": 1}"#, server: #"{"a": "x", "b": null}"#) == [])
    }
}
