import Foundation

/// How many keys a JSON document's objects have, as written and as read: an object
/// that names a key twice is read with one of its values, so the two counts differ
/// exactly when some object repeats a key (however its text spells it).
enum JSONKeyCount {
    /// The keys written in `json`, valid JSON text: each string followed by a colon.
    static func written(in json: Data) -> Int {
        json.withUnsafeBytes { bytes in
            var count = 0
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "\"") else {
                    index += 1
                    continue
                }
                // A string, skipped whole: an escape's next byte is never its end.
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
                while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                    index += 1
                }
                if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                    count += 1
                }
            }
            return count
        }
    }

    /// The keys of the objects in `value`, as `JSONSerialization` read it.
    static func read(in value: Any) -> Int {
        switch value {
        case let object as [String: Any]:
            object.count + object.values.reduce(0) { $0 + read(in: $1) }
        case let array as [Any]:
            array.reduce(0) { $0 + read(in: $1) }
        default:
            0
        }
    }
}
