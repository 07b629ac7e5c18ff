import Foundation

/// The shape of a JSON value: which keys its objects have and which type each
/// value is, recursively, without the values themselves.
indirect enum JSONShape: Equatable {
    case object([String: JSONShape])
    /// An array, with the shape of its first element (`nil` when it is empty).
    case array(JSONShape?)
    case string
    case number
    case bool
    case null

    /// The shape of the JSON text `data`, or `nil` when it is not JSON.
    init?(_ data: Data) {
        guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        self.init(value: value)
    }

    private init(value: Any) {
        switch value {
        case let object as [String: Any]:
            self = .object(object.mapValues { JSONShape(value: $0) })
        case let array as [Any]:
            self = .array(array.first.map { JSONShape(value: $0) })
        case is String:
            self = .string
        case is NSNull:
            self = .null
        case let number as NSNumber:
            self = Self.isBoolean(number) ? .bool : .number
        case is Bool:
            self = .bool
        default:
            self = .number
        }
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        #if canImport(Darwin)
        return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
        return number === NSNumber(value: true) || number === NSNumber(value: false) || String(cString: number.objCType) == "c"
        #endif
    }

    /// The type in words.
    var name: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// Where `live` differs from `self` (the stub's shape), one sentence each, at
    /// most `limit`; `path` names the value compared (`$` at the top).
    func differences(from live: JSONShape, path: String = "$", limit: Int = 10) -> [String] {
        var found: [String] = []
        collect(live, path: path, into: &found, limit: limit)
        return found
    }

    private func collect(_ live: JSONShape, path: String, into found: inout [String], limit: Int) {
        guard found.count < limit else { return }
        switch (self, live) {
        case let (.object(stub), .object(server)):
            for key in stub.keys.sorted() where server[key] == nil {
                guard found.count < limit else { return }
                found.append(DriftMessages.missingKey("\(path).\(key)"))
            }
            for key in server.keys.sorted() where stub[key] == nil {
                guard found.count < limit else { return }
                found.append(DriftMessages.extraKey("\(path).\(key)"))
            }
            for key in stub.keys.sorted() {
                if let stubValue = stub[key], let serverValue = server[key] {
                    stubValue.collect(serverValue, path: "\(path).\(key)", into: &found, limit: limit)
                }
            }
        case let (.array(stub?), .array(server?)):
            stub.collect(server, path: "\(path)[0]", into: &found, limit: limit)
        case (.array, .array):
            break // An empty array says nothing about its elements.
        case (.null, _), (_, .null):
            break // A value that may be null is not drift.
        default:
            if self.name != live.name {
                found.append(DriftMessages.differentType(path, stub: name, server: live.name))
            }
        }
    }
}
